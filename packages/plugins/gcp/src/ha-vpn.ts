import { randomUUID } from 'node:crypto';
import type { protos } from '@google-cloud/compute';
import type { ProvisionContext } from '@netbench/plugin-api';
import { allOrFirstError } from '@netbench/plugin-api/cloud-kit';
import type { GceClients } from './clients.js';
import { toNetbenchError } from './errors.js';
import type { GcpVpnConfig } from './host-schema.js';
import { resourceName } from './naming.js';
import { operationOf, waitForOperation } from './operations.js';
import { ids, parseId, resource, TYPES } from './resources.js';
import type { GcpRuntime } from './runtime.js';
import { description, newSharedSecret, type VpnSide } from './vpn.js';

/** Private ASNs of the two Cloud Routers (RFC 6996), distinct per side. */
export const HA_ASNS = [64512, 64513] as const;
/** Interfaces of every HA VPN gateway (the API makes exactly two). */
export const HA_INTERFACES = [0, 1] as const;

const gatewayName = (runId: string, side: VpnSide, g: number) => resourceName(runId, `${side.group}-ha${g}`);
const routerName = (runId: string, side: VpnSide) => resourceName(runId, `${side.group}-router`);
const tunnelName = (runId: string, side: VpnSide, g: number, i: number, t: number) => resourceName(runId, `${side.group}-ha${g}-i${i}-t${t}`);

/** One tunnel pair: gateway g, interface i, tunnel t, numbered k from 0. */
export interface HaTunnelPair {
  readonly g: number;
  readonly i: number;
  readonly t: number;
  readonly k: number;
}

export function haTunnelPairs(vpn: GcpVpnConfig): HaTunnelPair[] {
  const pairs: HaTunnelPair[] = [];
  for (let g = 0; g < vpn.gateways; g += 1) for (const i of HA_INTERFACES) for (let t = 0; t < vpn.tunnels; t += 1) pairs.push({ g, i, t, k: pairs.length });
  return pairs;
}

/**
 * The BGP link of tunnel pair k: a /30 of 169.254.0.0/16 from 169.254.1.0
 * on (169.254.0.0/24 is left alone), side 0 on its first host address, side
 * 1 on its second: each end's `ipRange` is the other's `peerIpAddress`.
 */
export function bgpLink(k: number): readonly [string, string] {
  const base = 256 + 4 * k;
  const at = (n: number) => `169.254.${Math.floor(n / 256)}.${n % 256}`;
  if (base + 3 > 0xffff) throw new Error(`no /30 of 169.254.0.0/16 left for tunnel pair ${k}`);
  return [at(base + 1), at(base + 2)];
}

/**
 * HA VPN between two networks with dynamic routing: per side a Cloud Router
 * (`bgp.asn` 64512 / 64513) and `gateways` HA VPN gateways (two interfaces
 * each); per gateway pair and interface `tunnels` IKEv2 tunnels each way
 * (interface i to the peer gateway's interface i, `router` set, one fresh
 * shared secret per tunnel pair); then each router gets, by `routers.patch`,
 * one interface per tunnel (`linkedVpnTunnel`, a link-local /30) and one BGP
 * peer per tunnel (the other end's address and ASN). No static routes: the
 * routers advertise their networks' subnets. Every resource is in the
 * ledger before its insert (the router's interfaces and peers go with the
 * router); the secrets are in no ledger entry, log line or file.
 */
export async function provisionHaVpn(vpn: GcpVpnConfig, sides: readonly [VpnSide, VpnSide], ctx: ProvisionContext, runtime: GcpRuntime): Promise<void> {
  const clients = runtime.clients();
  const wait = { signal: ctx.signal, timeoutMs: runtime.timing.operationTimeoutMs };
  const runId = ctx.runId;
  const regional = async (what: string, type: string, id: string, data: Record<string, unknown>, insert: () => Promise<unknown[]>) => {
    await ctx.ledger
      .track(resource(type, id, undefined, data), async () => {
        const op = operationOf(await insert());
        await waitForOperation(clients, parseId(id).project, op, wait);
      })
      .catch((error: unknown) => {
        throw toNetbenchError(error, `creating ${what} ${id}`);
      });
  };
  const gatewayIds = [...Array(vpn.gateways).keys()];
  const routerId = (s: number) => ids.router(sides[s]!.project, sides[s]!.region, routerName(runId, sides[s]!));
  const gatewayId = (s: number, g: number) => ids.haVpnGateway(sides[s]!.project, sides[s]!.region, gatewayName(runId, sides[s]!, g));
  const tunnelId = (s: number, p: HaTunnelPair) => ids.vpnTunnel(sides[s]!.project, sides[s]!.region, tunnelName(runId, sides[s]!, p.g, p.i, p.t));

  // 1. A Cloud Router per side (BGP, private ASN) and its HA VPN gateways.
  await allOrFirstError(
    sides.flatMap((side, s) => {
      const { project, region } = side;
      const router: protos.google.cloud.compute.v1.IRouter = {
        name: routerName(runId, side),
        description: description(runId, `Cloud Router for HA VPN (${side.group})`),
        network: side.networkLink,
        bgp: { asn: HA_ASNS[s]!, advertiseMode: 'DEFAULT' },
      };
      return [
        regional('Cloud Router', TYPES.router, routerId(s), { network: side.networkLink, asn: HA_ASNS[s] }, () =>
          clients.routers.insert({ requestId: randomUUID(), project, region, routerResource: router }),
        ),
        ...gatewayIds.map((g) => {
          const body: protos.google.cloud.compute.v1.IVpnGateway = {
            name: gatewayName(runId, side, g),
            description: description(runId, `HA VPN gateway (${side.group}, gateway ${g})`),
            network: side.networkLink,
          };
          return regional('HA VPN gateway', TYPES.haVpnGateway, gatewayId(s, g), { network: side.networkLink }, () =>
            clients.vpnGateways.insert({ requestId: randomUUID(), project, region, vpnGatewayResource: body }),
          );
        }),
      ];
    }),
  );

  // 2. Tunnels: interface i of side A's gateway g to interface i of side B's, one secret per pair.
  const pairs = haTunnelPairs(vpn);
  const secrets = pairs.map(() => newSharedSecret());
  await allOrFirstError(
    sides.flatMap((side, s) =>
      pairs.map((p) => {
        const other = sides[1 - s]!;
        const { project, region } = side;
        const body: protos.google.cloud.compute.v1.IVpnTunnel = {
          name: tunnelName(runId, side, p.g, p.i, p.t),
          description: description(runId, `HA VPN tunnel ${p.t} on interface ${p.i} from ${side.group} to ${other.group} (gateway ${p.g})`),
          vpnGateway: gatewayId(s, p.g),
          vpnGatewayInterface: p.i,
          peerGcpGateway: gatewayId(1 - s, p.g),
          ikeVersion: 2,
          sharedSecret: secrets[p.k]!,
          router: routerId(s),
        };
        return regional('VPN tunnel', TYPES.vpnTunnel, tunnelId(s, p), { peerGcpGateway: body.peerGcpGateway, interface: p.i, ikeVersion: 2, network: side.networkLink }, () =>
          clients.vpnTunnels.insert({ requestId: randomUUID(), project, region, vpnTunnelResource: body }),
        );
      }),
    ),
  );

  // 3. BGP: per tunnel a router interface on its link-local /30 and a peer at the other end.
  await allOrFirstError(
    sides.map(async (side, s) => {
      const { project, region } = side;
      const name = routerName(runId, side);
      const patch: protos.google.cloud.compute.v1.IRouter = {
        interfaces: pairs.map((p) => ({ name: `if-${p.k}`, linkedVpnTunnel: tunnelId(s, p), ipRange: `${bgpLink(p.k)[s]}/30` })),
        bgpPeers: pairs.map((p) => ({ name: `peer-${p.k}`, interfaceName: `if-${p.k}`, peerIpAddress: bgpLink(p.k)[1 - s], peerAsn: HA_ASNS[1 - s]! })),
      };
      // In the ledger as its own entry, after the tunnels: teardown removes it first, then the tunnels it links.
      await ctx.ledger
        .track(resource(TYPES.routerBgp, routerId(s), undefined, { sessions: pairs.length, asn: HA_ASNS[s], peerAsn: HA_ASNS[1 - s] }), async () => {
          const op = operationOf(await clients.routers.patch({ requestId: randomUUID(), project, region, router: name, routerResource: patch }));
          await waitForOperation(clients, project, op, wait);
        })
        .catch((error: unknown) => {
          throw toNetbenchError(error, `adding BGP sessions to Cloud Router ${routerId(s)}`);
        });
    }),
  );
  ctx.log.info(
    `gcp: HA VPN between ${sides[0].group} and ${sides[1].group}: ${vpn.gateways} gateway(s) per network (2 interfaces each), ${vpn.tunnels} tunnel(s) per interface pair each way, IKEv2, dynamic routing (Cloud Router ASNs ${HA_ASNS.join('/')}, ${pairs.length} BGP session(s))`,
  );
}

/** Ledger entries an HA VPN block makes (for `plan`): count by resource. */
export function haVpnResourceCounts(vpn: GcpVpnConfig): Record<string, number> {
  return {
    [TYPES.router]: 2,
    [TYPES.haVpnGateway]: 2 * vpn.gateways,
    [TYPES.vpnTunnel]: 2 * haTunnelPairs(vpn).length,
  };
}

/**
 * Teardown of a `gce-router-bgp` entry: the router again without its
 * interfaces and BGP peers (`routers.update` replaces the whole router;
 * its ASN and network stay). A router already gone is a 404 (success).
 */
export async function clearRouterBgp(clients: GceClients, id: string): Promise<unknown[]> {
  const p = parseId(id);
  const [router] = await clients.routers.get({ project: p.project, region: p.region!, router: p.name });
  const kept: protos.google.cloud.compute.v1.IRouter = {
    name: router.name ?? p.name,
    ...(router.description ? { description: router.description } : {}),
    ...(router.network ? { network: router.network } : {}),
    ...(router.bgp
      ? { bgp: { ...(router.bgp.asn != null ? { asn: router.bgp.asn } : {}), ...(router.bgp.advertiseMode ? { advertiseMode: router.bgp.advertiseMode } : {}) } }
      : {}),
  };
  return clients.routers.update({ requestId: randomUUID(), project: p.project, region: p.region!, router: p.name, routerResource: kept });
}
