import type { protos } from '@google-cloud/compute';
import { resourceName, runLabels, runPrefix, runTag } from './naming.js';

type Compute = typeof protos.google.cloud.compute.v1;
export type NetworkBody = protos.google.cloud.compute.v1.INetwork;
export type SubnetBody = protos.google.cloud.compute.v1.ISubnetwork;
export type FirewallBody = protos.google.cloud.compute.v1.IFirewall;
export type InstanceBody = protos.google.cloud.compute.v1.IInstance;
export type PolicyBody = protos.google.cloud.compute.v1.IResourcePolicy;
export type { Compute };

const description = (runId: string, what: string) => `netbench run ${runId}: ${what}`;

/** Name of the run's VPC: `nb-<runId>`, or `nb-<runId>-<group>` for a `vpcGroup`. */
export const networkName = (runId: string, group?: string) => (group ? resourceName(runId, group) : runPrefix(runId));
/** A resource name within a group's network (`nb-<runId>-<group>-<suffix>`). */
const grouped = (runId: string, suffix: string, group?: string) => resourceName(runId, group ? `${group}-${suffix}` : suffix);

export const networkBody = (runId: string, group?: string): NetworkBody => ({
  name: networkName(runId, group),
  description: description(runId, group ? `per-run VPC network of group ${group}` : 'per-run VPC network'),
  // Custom mode: one subnet per region the run uses, nothing else.
  autoCreateSubnetworks: false,
});

export const subnetBody = (runId: string, project: string, region: string, cidr: string, group?: string): SubnetBody => ({
  name: grouped(runId, region, group),
  description: description(runId, `subnet in ${region}`),
  network: `projects/${project}/global/networks/${networkName(runId, group)}`,
  ipCidrRange: cidr,
  // The discovery document: "URL of the region where the Subnetwork resides" (a partial URL, as for network).
  region: `projects/${project}/regions/${region}`,
});

/** SSH only from where netbench runs, to the run's hosts only (by network tag). */
export const sshFirewallBody = (runId: string, networkLink: string, sources: readonly string[], group?: string): FirewallBody => ({
  name: grouped(runId, 'ssh', group),
  description: description(runId, 'SSH from the controller'),
  network: networkLink,
  direction: 'INGRESS',
  priority: 1000,
  sourceRanges: [...sources],
  targetTags: [runTag(runId)],
  allowed: [{ IPProtocol: 'tcp', ports: ['22'] }],
});

const TOOL_TRAFFIC = [{ IPProtocol: 'tcp' }, { IPProtocol: 'udp' }, { IPProtocol: 'icmp' }];

/** Tool ports and ICMP between the run's own hosts, on their internal addresses (source tag = target tag). */
export const internalFirewallBody = (runId: string, networkLink: string, group?: string, vpnSources: readonly string[] = []): FirewallBody => ({
  name: grouped(runId, 'internal', group),
  description: description(runId, vpnSources.length > 0 ? "tool traffic between the run's hosts, here and across the VPN" : "tool traffic between the run's hosts"),
  network: networkLink,
  direction: 'INGRESS',
  priority: 1000,
  sourceTags: [runTag(runId)],
  // Tags do not cross a VPN: the other network's subnet ranges are admitted by range.
  ...(vpnSources.length > 0 ? { sourceRanges: [...vpnSources] } : {}),
  targetTags: [runTag(runId)],
  allowed: TOOL_TRAFFIC,
});

/**
 * Tool traffic to external addresses: source tags match internal addresses
 * only, so trials with `ip: external` need the hosts' own external addresses
 * (known once they exist), plus any `allowFrom` range (the other cloud).
 */
export const externalFirewallBody = (runId: string, networkLink: string, sources: readonly string[], group?: string): FirewallBody => ({
  name: grouped(runId, 'external', group),
  description: description(runId, "tool traffic between the run's external addresses"),
  network: networkLink,
  direction: 'INGRESS',
  priority: 1000,
  sourceRanges: [...sources],
  targetTags: [runTag(runId)],
  allowed: TOOL_TRAFFIC,
});

/** IPv4 or IPv6: a VPC firewall rule takes source ranges of one family only. */
export type IpFamily = 'ipv4' | 'ipv6';

/** ICMP is IPv4's protocol name; ICMPv6 is protocol number 58. */
const PEER_TRAFFIC: Record<IpFamily, FirewallBody['allowed']> = {
  ipv4: TOOL_TRAFFIC,
  ipv6: [{ IPProtocol: 'tcp' }, { IPProtocol: 'udp' }, { IPProtocol: '58' }],
};

/** Name of the run's peer rule of one family (`nb-<runId>-peers`, `nb-<runId>-peers-v6`): cleanup finds it by the run id. */
export const peerRuleName = (runId: string, family: IpFamily) => resourceName(runId, family === 'ipv4' ? 'peers' : 'peers-v6');

/**
 * Tool traffic and ICMP from the run's hosts on other clouds (and on-premises
 * machines) to this run's hosts, from their addresses (`/32`, `/128`): what
 * the run's own hosts get from each other, for the peers `admitPeers` is given.
 */
export const peerFirewallBody = (runId: string, networkLink: string, family: IpFamily, sources: readonly string[], peerIds: readonly string[]): FirewallBody => {
  const who = peerIds.join(', ');
  return {
    name: peerRuleName(runId, family),
    // The API caps descriptions at 2048 characters.
    description: description(runId, `tool traffic from the run's hosts on other clouds (${who.length > 1500 ? `${who.slice(0, 1500)}…` : who})`),
    network: networkLink,
    direction: 'INGRESS',
    priority: 1000,
    sourceRanges: [...sources],
    targetTags: [runTag(runId)],
    allowed: PEER_TRAFFIC[family],
  };
};

/**
 * A compact placement policy (VMs close together) for the hosts of one zone.
 * No `region` in the body: the discovery document marks ResourcePolicy.region
 * output only (the region is the request path's).
 */
export const compactPolicyBody = (runId: string, zone: string, group?: string): PolicyBody => ({
  name: grouped(runId, `compact-${zone}`, group),
  description: description(runId, `compact placement in ${zone}`),
  groupPlacementPolicy: { collocation: 'COLLOCATED' },
});

export interface InstanceSpec {
  readonly runId: string;
  readonly hostId: string;
  readonly name: string;
  readonly project: string;
  readonly zone: string;
  readonly machineType: string;
  readonly sourceImage: string;
  readonly diskType?: string;
  readonly networkLink: string;
  readonly subnetLink?: string;
  readonly externalIp: boolean;
  readonly networkTier: 'PREMIUM' | 'STANDARD';
  readonly sshUser: string;
  readonly publicKey: string;
  readonly policyLink?: string;
}

export function instanceBody(spec: InstanceSpec): InstanceBody {
  const labels = runLabels(spec.runId, spec.hostId);
  return {
    name: spec.name,
    description: description(spec.runId, `host ${spec.hostId}`),
    machineType: `zones/${spec.zone}/machineTypes/${spec.machineType}`,
    labels,
    tags: { items: [runTag(spec.runId)] },
    metadata: {
      items: [
        { key: 'ssh-keys', value: `${spec.sshUser}:${spec.publicKey.trim()}` },
        // Project-wide OS Login would ignore the run's key; this host uses its own.
        { key: 'enable-oslogin', value: 'FALSE' },
      ],
    },
    disks: [
      {
        boot: true,
        autoDelete: true,
        type: 'PERSISTENT',
        initializeParams: {
          sourceImage: spec.sourceImage,
          labels,
          ...(spec.diskType ? { diskType: `zones/${spec.zone}/diskTypes/${spec.diskType}` } : {}),
        },
      },
    ],
    networkInterfaces: [
      {
        network: spec.networkLink,
        ...(spec.subnetLink ? { subnetwork: spec.subnetLink } : {}),
        accessConfigs: spec.externalIp ? [{ name: 'External NAT', type: 'ONE_TO_ONE_NAT', networkTier: spec.networkTier }] : [],
      },
    ],
    ...(spec.policyLink
      ? {
          resourcePolicies: [spec.policyLink],
          // Compact placement needs the host to stop, not migrate, for maintenance.
          scheduling: { onHostMaintenance: 'TERMINATE', automaticRestart: true },
        }
      : {}),
  };
}
