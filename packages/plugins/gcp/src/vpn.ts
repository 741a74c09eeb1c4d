import { randomBytes, randomUUID } from 'node:crypto';
import type { protos } from '@google-cloud/compute';
import type { HostRequest, ProvisionContext } from '@netbench/plugin-api';
import { UnsupportedError } from '@netbench/plugin-api';
import { allOrFirstError } from '@netbench/plugin-api/cloud-kit';
import { toNetbenchError } from './errors.js';
import type { GcpHostConfig, GcpVpnConfig } from './host-schema.js';
import { regionOf, resourceName } from './naming.js';
import { operationOf, waitForOperation } from './operations.js';
import { ids, parseId, resource, TYPES } from './resources.js';
import type { GcpRuntime } from './runtime.js';

type V1 = protos.google.cloud.compute.v1.IAddress;
interface Compute {
  IAddress: V1;
  ITargetVpnGateway: protos.google.cloud.compute.v1.ITargetVpnGateway;
  IForwardingRule: protos.google.cloud.compute.v1.IForwardingRule;
  IVpnTunnel: protos.google.cloud.compute.v1.IVpnTunnel;
  IRoute: protos.google.cloud.compute.v1.IRoute;
}

/** The run's hosts by `vpcGroup`, groups in name order; undefined when no host sets one. */
export function vpcGroups(requests: readonly HostRequest<GcpHostConfig>[]): Map<string, HostRequest<GcpHostConfig>[]> | undefined {
  if (requests.every((r) => r.config.vpcGroup === undefined)) return undefined;
  const missing = requests.filter((r) => r.config.vpcGroup === undefined).map((r) => r.id);
  if (missing.length > 0) throw new UnsupportedError(`gcp hosts of one run either all set vpcGroup or none do; missing on ${missing.join(', ')}`);
  const groups = new Map<string, HostRequest<GcpHostConfig>[]>();
  for (const r of [...requests].sort((a, b) => a.config.vpcGroup!.localeCompare(b.config.vpcGroup!))) {
    groups.set(r.config.vpcGroup!, [...(groups.get(r.config.vpcGroup!) ?? []), r]);
  }
  return groups;
}

/** The run's one VPN block (every host that sets `vpn` sets the same), checked against what is built. */
export function runVpn(requests: readonly HostRequest<GcpHostConfig>[]): GcpVpnConfig | undefined {
  const blocks = new Set(requests.flatMap((r) => (r.config.vpn ? [JSON.stringify(r.config.vpn)] : [])));
  if (blocks.size === 0) return undefined;
  if (blocks.size > 1) throw new UnsupportedError(`gcp hosts of one run must set the same vpn block; found ${[...blocks].join(' and ')}`);
  const vpn = requests.find((r) => r.config.vpn)!.config.vpn!;
  if (vpn.type === 'ha' && vpn.ikeVersion !== 2) throw new UnsupportedError('gcp vpn: HA VPN requires IKEv2 (ikeVersion: 2); IKEv1 is Classic VPN only');
  if (vpn.type === 'ha' && vpn.routing !== 'dynamic')
    throw new UnsupportedError('gcp vpn: HA VPN is built with dynamic routing (Cloud Router + BGP) only: set routing: dynamic, or type: classic for static routes');
  if (vpn.type === 'classic' && vpn.routing === 'dynamic')
    throw new UnsupportedError('gcp vpn: Classic VPN with dynamic routing is not built; for dynamic routing (Cloud Router + BGP) use type: ha');
  const groups = new Set(requests.map((r) => r.config.vpcGroup));
  if (groups.size !== 2) throw new UnsupportedError(`gcp vpn joins exactly two vpcGroup networks; the run's hosts are in ${groups.size} (${[...groups].join(', ')})`);
  return vpn;
}

/** One network the VPN joins. */
export interface VpnSide {
  readonly group: string;
  readonly project: string;
  /** Where its gateways are: the region of its first host. */
  readonly region: string;
  readonly networkLink: string;
  /** Its subnet ranges (the other side routes them into the tunnels). */
  readonly ranges: readonly string[];
}

export const vpnSide = (group: string, project: string, requests: readonly HostRequest<GcpHostConfig>[], networkLink: string, ranges: Iterable<string>): VpnSide => ({
  group,
  project,
  region: regionOf(requests[0]!.config.zone),
  networkLink,
  ranges: [...ranges],
});

export const description = (runId: string, what: string) => `netbench run ${runId}: ${what}`;
const gatewayName = (runId: string, side: VpnSide, g: number) => resourceName(runId, `${side.group}-vpn${g}`);
const tunnelName = (runId: string, side: VpnSide, g: number, t: number) => resourceName(runId, `${side.group}-vpn${g}-t${t}`);

/** What Classic VPN needs forwarded to a gateway: ESP, IKE (UDP 500) and NAT-T (UDP 4500). */
const FORWARDED = [
  { suffix: 'esp', IPProtocol: 'ESP' },
  { suffix: 'udp500', IPProtocol: 'UDP', portRange: '500' },
  { suffix: 'udp4500', IPProtocol: 'UDP', portRange: '4500' },
] as const;

/** A per-run shared secret: 32 random bytes, base64. Only ever in the tunnel insert requests. */
export const newSharedSecret = () => randomBytes(32).toString('base64');

/**
 * Classic Cloud VPN between two networks (what PKB's `vpn_service` builds
 * on GCP): per side and gateway an external address, a target VPN gateway
 * and its three forwarding rules; per gateway pair `tunnels` route-based
 * tunnels each way (IKE v1/v2, a fresh shared secret per tunnel pair), and
 * per tunnel one static route per range of the other side. Stages run one
 * after the other (each needs the one before); within a stage in parallel.
 * Every resource is in the ledger before its insert; the secrets are in no
 * ledger entry, log line or file.
 */
export async function provisionVpn(vpn: GcpVpnConfig, sides: readonly [VpnSide, VpnSide], ctx: ProvisionContext, runtime: GcpRuntime): Promise<void> {
  const clients = runtime.clients();
  const wait = { signal: ctx.signal, timeoutMs: runtime.timing.operationTimeoutMs };
  const runId = ctx.runId;
  const gateways = [...Array(vpn.gateways).keys()];
  const tunnels = [...Array(vpn.tunnels).keys()];
  const pairs = sides.flatMap((side, s) => gateways.map((g) => ({ side, other: sides[1 - s]!, g })));
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

  // 1. An external address and a gateway per side and gateway.
  const address = new Map<string, string>();
  await allOrFirstError(
    pairs.flatMap(({ side, g }) => {
      const name = gatewayName(runId, side, g);
      const { project, region } = side;
      const addressBody: Compute['IAddress'] = { name, description: description(runId, `Cloud VPN gateway address (${side.group}, gateway ${g})`), addressType: 'EXTERNAL' };
      const gatewayBody: Compute['ITargetVpnGateway'] = { name, description: description(runId, `Classic VPN gateway (${side.group}, gateway ${g})`), network: side.networkLink };
      return [
        regional('address', TYPES.address, ids.address(project, region, name), {}, () =>
          clients.addresses.insert({ requestId: randomUUID(), project, region, addressResource: addressBody }),
        ).then(async () => {
          const [got] = await clients.addresses.get({ project, region, address: name });
          if (!got.address) throw new UnsupportedError(`gcp gave address ${name} no IP`);
          address.set(name, got.address);
        }),
        regional('VPN gateway', TYPES.vpnGateway, ids.vpnGateway(project, region, name), { network: side.networkLink }, () =>
          clients.targetVpnGateways.insert({ requestId: randomUUID(), project, region, targetVpnGatewayResource: gatewayBody }),
        ),
      ];
    }),
  );

  // 2. ESP, UDP 500 and UDP 4500 on each address to its gateway.
  await allOrFirstError(
    pairs.flatMap(({ side, g }) =>
      FORWARDED.map((f) => {
        const gateway = gatewayName(runId, side, g);
        const name = resourceName(runId, `${side.group}-vpn${g}-${f.suffix}`);
        const { project, region } = side;
        const body: Compute['IForwardingRule'] = {
          name,
          description: description(runId, `${f.suffix} to Classic VPN gateway ${gateway}`),
          IPAddress: address.get(gateway)!,
          IPProtocol: f.IPProtocol,
          ...('portRange' in f ? { portRange: f.portRange } : {}),
          target: ids.vpnGateway(project, region, gateway),
        };
        return regional('forwarding rule', TYPES.forwardingRule, ids.forwardingRule(project, region, name), { target: body.target }, () =>
          clients.forwardingRules.insert({ requestId: randomUUID(), project, region, forwardingRuleResource: body }),
        );
      }),
    ),
  );

  // 3. Tunnels: side A's tunnel t of gateway g and side B's share one secret.
  const secrets = gateways.map(() => tunnels.map(() => newSharedSecret()));
  await allOrFirstError(
    pairs.flatMap(({ side, other, g }) =>
      tunnels.map((t) => {
        const name = tunnelName(runId, side, g, t);
        const { project, region } = side;
        const peerIp = address.get(gatewayName(runId, other, g))!;
        const body: Compute['IVpnTunnel'] = {
          name,
          description: description(runId, `Classic VPN tunnel ${t} from ${side.group} to ${other.group} (gateway ${g})`),
          targetVpnGateway: ids.vpnGateway(project, region, gatewayName(runId, side, g)),
          peerIp,
          ikeVersion: vpn.ikeVersion,
          sharedSecret: secrets[g]![t]!,
          // Route-based: any traffic the routes send in.
          localTrafficSelector: ['0.0.0.0/0'],
          remoteTrafficSelector: ['0.0.0.0/0'],
        };
        return regional('VPN tunnel', TYPES.vpnTunnel, ids.vpnTunnel(project, region, name), { peerIp, ikeVersion: vpn.ikeVersion, network: side.networkLink }, () =>
          clients.vpnTunnels.insert({ requestId: randomUUID(), project, region, vpnTunnelResource: body }),
        );
      }),
    ),
  );

  // 4. Static routes: the other side's ranges into each tunnel (equal priority: ECMP over the tunnels).
  await allOrFirstError(
    pairs.flatMap(({ side, other, g }) =>
      tunnels.flatMap((t) =>
        other.ranges.map((range, r) => {
          const name = resourceName(runId, `${side.group}-vpn${g}-t${t}-r${r}`);
          const tunnel = ids.vpnTunnel(side.project, side.region, tunnelName(runId, side, g, t));
          const body: Compute['IRoute'] = {
            name,
            description: description(runId, `${range} (${other.group}) through ${tunnel}`),
            network: side.networkLink,
            destRange: range,
            priority: 1000,
            nextHopVpnTunnel: tunnel,
          };
          return regional('route', TYPES.route, ids.route(side.project, name), { network: side.networkLink, destRange: range }, () =>
            clients.routes.insert({ requestId: randomUUID(), project: side.project, routeResource: body }),
          );
        }),
      ),
    ),
  );
  ctx.log.info(
    `gcp: Classic VPN between ${sides[0].group} and ${sides[1].group}: ${vpn.gateways} gateway(s) per network, ${vpn.tunnels} tunnel(s) per gateway pair each way, IKEv${vpn.ikeVersion}, static routes`,
  );
}

/** Ledger entries a VPN block makes (for `plan`): count by resource. */
export function vpnResourceCounts(vpn: GcpVpnConfig, rangesPerSide: readonly [number, number]): Record<string, number> {
  const gateways = 2 * vpn.gateways;
  const tunnels = gateways * vpn.tunnels;
  return {
    [TYPES.address]: gateways,
    [TYPES.vpnGateway]: gateways,
    [TYPES.forwardingRule]: 3 * gateways,
    [TYPES.vpnTunnel]: tunnels,
    [TYPES.route]: vpn.gateways * vpn.tunnels * (rangesPerSide[0] + rangesPerSide[1]),
  };
}
