import { z } from '@netbench/plugin-api';
import { vmCongestionControlSchema } from '@netbench/plugin-api/cloud-kit';
import { ipv4CidrSchema } from '@netbench/plugin-api/tool-kit';

const ZONE_RE = /^[a-z]+-[a-z]+\d+-[a-z]$/;
const zone = z.string().regex(ZONE_RE, { message: 'expected a GCE zone such as us-central1-a' });
// Octets ≤ 255 and prefix ≤ 32, checked by value (the shape alone took 999.1.1.1/99).
const cidr = ipv4CidrSchema;
// Upper case as the API spells it, lower case as PKB's flag does; normalised by `tierOf`.
const tier = z.enum(['PREMIUM', 'STANDARD', 'premium', 'standard']);

/**
 * A Cloud VPN between the run's two `vpcGroup` networks (PKB `vpn_service`).
 * Every host that sets it must set the same block. Classic VPN takes static
 * (route-based) routing; HA VPN takes dynamic routing (Cloud Router + BGP)
 * and IKEv2; other combinations are refused.
 */
export const vpnSchema = z
  .strictObject({
    /** `classic`: target VPN gateways with an external address and ESP/UDP 500/UDP 4500 forwarding rules each. */
    type: z.enum(['classic', 'ha']).default('classic'),
    /** `static`: a route per tunnel to the other network's ranges. */
    routing: z.enum(['static', 'dynamic']).default('static'),
    /** Gateways per network (PKB `vpn_service_gateway_count`); gateway i of one network pairs with gateway i of the other. */
    gateways: z.number().int().min(1).max(4).default(1),
    /** Tunnels per gateway pair, each way (PKB `vpn_service.tunnel_count`). */
    tunnels: z.number().int().min(1).max(8).default(1),
    /** IKE version of every tunnel. */
    ikeVersion: z.union([z.literal(1), z.literal(2)]).default(2),
  })
  .refine((v) => v.type !== 'ha' || v.ikeVersion === 2, { message: 'HA VPN requires IKEv2 (ikeVersion: 2); IKEv1 is Classic VPN only', path: ['ikeVersion'] });
export type GcpVpnConfig = z.output<typeof vpnSchema>;

export const hostSchema = z
  .strictObject({
    /** Zone, e.g. `us-central1-a`. */
    zone,
    /** Machine type, e.g. `n2-standard-4`. */
    machineType: z
      .string()
      .regex(/^[a-z0-9-]+$/)
      .default('n2-standard-2'),
    /** Project; default: `GOOGLE_CLOUD_PROJECT`, the ADC file, then gcloud's configured project. */
    project: z
      .string()
      .regex(/^[a-z][-a-z0-9.:]{4,62}$/)
      .optional(),
    /** Image family and project (default: the current Ubuntu LTS), or an exact `image` link. */
    imageFamily: z.string().default('ubuntu-2404-lts-amd64'),
    imageProject: z.string().default('ubuntu-os-cloud'),
    image: z.string().optional(),
    /** Boot disk type (e.g. `hyperdisk-balanced` for c4/n4); default: the API's. */
    diskType: z.string().optional(),
    /** Network tier of the external address (PKB `--gce_network_tier`). */
    networkTier: tier.default('PREMIUM'),
    /** Give the host an external address (needed to reach it from outside its VPC). */
    externalIp: z.boolean().default(true),
    /** Reuse this VPC network instead of making one per run (PKB `--gce_network_name`). */
    network: z.string().optional(),
    /** Subnetwork of `network` in the host's region (custom-mode networks). */
    subnet: z.string().optional(),
    /** Range of the per-run subnet in this host's region (default 10.<128+n>.0.0/20). */
    cidr: cidr.optional(),
    /** Per-run VPC network this host joins: hosts with different groups get separate VPCs (`nb-<run>-<group>`), joined only by `vpn`. */
    vpcGroup: z
      .string()
      .regex(/^[a-z]([-a-z0-9]{0,10}[a-z0-9])?$/, { message: 'expected a short name: lower-case letters, digits, -; at most 12 characters' })
      .optional(),
    /** A Cloud VPN between the run's two `vpcGroup` networks. */
    vpn: vpnSchema.optional(),
    /** `compact`: a compact placement policy per zone (lowest intra-zone latency). */
    placement: z.enum(['compact']).optional(),
    /** Zones to try, in order, when the zone has no capacity for the machine type (same region). */
    fallbackZones: z.array(zone).default([]),
    /** Where SSH is allowed from; default: the public address netbench runs from, /32. */
    sshFrom: z.array(cidr).optional(),
    /** Extra sources allowed to reach the run's hosts on every port (e.g. the other cloud of a cross-cloud test). */
    allowFrom: z.array(cidr).default([]),
    sshUser: z
      .string()
      .regex(/^[a-z_][a-z0-9_-]{0,31}$/)
      .default('netbench'),
    /** TCP congestion control, set over SSH after boot (the VM is deleted with the run). */
    congestionControl: vmCongestionControlSchema.optional(),
    /** Private key to log in with (its `.pub` beside it); default: a key made for the run. */
    sshKeyPath: z.string().optional(),
    /** How the host key is verified: from the serial console, falling back to trust-on-first-use if absent. */
    hostKeys: z.enum(['console', 'console-or-tofu', 'tofu']).default('console-or-tofu'),
  })
  .refine((c) => c.vpcGroup === undefined || c.network === undefined, {
    message: 'vpcGroup makes per-run networks; it cannot be combined with an existing network',
    path: ['vpcGroup'],
  })
  .refine((c) => c.vpn === undefined || c.vpcGroup !== undefined, { message: 'vpn joins the networks of two vpcGroups: set vpcGroup on every host', path: ['vpn'] })
  .refine((c) => c.subnet === undefined || c.network !== undefined, { message: 'subnet needs network (an existing VPC)', path: ['subnet'] })
  .refine((c) => c.fallbackZones.every((z) => z.replace(/-[a-z]$/, '') === c.zone.replace(/-[a-z]$/, '')), {
    message: 'fallback zones must be in the same region as zone',
    path: ['fallbackZones'],
  });

export type GcpHostConfig = z.output<typeof hostSchema>;

export const tierOf = (config: GcpHostConfig) => config.networkTier.toUpperCase() as 'PREMIUM' | 'STANDARD';
