import { isPlainObject } from '../matrix/placeholders.js';
import type { Path, Problems } from './problems.js';
import type { PkbVm } from './vms.js';

/** The GCP plugin's `vpn` host block, as PKB's `vpn_service` translates. */
export interface NativeVpn {
  type: 'classic' | 'ha';
  routing: 'static' | 'dynamic';
  gateways: number;
  tunnels: number;
  ikeVersion: 1 | 2;
}

const VPN_KEYS = new Set(['tunnel_count', 'gateway_count', 'routing_type', 'ike_version', 'shared_key', 'name']);

function readInt(value: unknown, path: Path, min: number, max: number, problems: Problems): number | undefined {
  const n = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof n === 'number' && Number.isInteger(n) && n >= min && n <= max) return n;
  problems.error(path, `expected an integer from ${min} to ${max}`);
  return undefined;
}

/** GCE name-safe group name, at most 12 characters (`vm_1` → `vm-1`). */
const groupSlug = (group: string) =>
  group
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^[^a-z]+/, '')
    .slice(0, 12)
    .replace(/-+$/, '');

/**
 * PKB's `use_vpn` with `vpn_service` (and `vpn_service_gateway_count`) on
 * GCP: each VM group gets its own per-run VPC (`vpcGroup`), and every host
 * carries the same `vpn` block, so the gcp plugin builds a Cloud VPN between
 * the two networks as PKB's `vpn_service` does. PKB's defaults: one tunnel,
 * one gateway, static routing, IKEv1; `routing_type: dynamic` is an HA VPN
 * with Cloud Router (BGP) and IKEv2. Returns whether the VPN was
 * translated; when it is not (another cloud, not two groups) the caller
 * warns that the hosts are measured directly.
 */
export function applyVpn(config: Record<string, unknown>, base: Path, vms: readonly PkbVm[], problems: Problems): boolean {
  const service = config['vpn_service'];
  const servicePath = [...base, 'vpn_service'];
  if (service !== undefined && !isPlainObject(service)) {
    problems.error(servicePath, 'vpn_service must be a mapping (tunnel_count, ike_version, routing_type, ...)');
    return false;
  }
  const groups = [...new Set(vms.map((vm) => vm.group))];
  if (vms.length === 0 || vms.some((vm) => vm.cloud !== 'gcp') || groups.length !== 2) return false;
  const slugs = groups.map(groupSlug);
  const names = slugs.every((s) => s.length > 0) && slugs[0] !== slugs[1] ? slugs : ['a', 'b'];

  const s = (service ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(s)) {
    if (!VPN_KEYS.has(key)) problems.warn([...servicePath, key], `vpn_service key '${key}' is not used by netbench; ignored`);
  }
  if (s['shared_key'] !== undefined) problems.warn([...servicePath, 'shared_key'], 'shared_key ignored: netbench makes a fresh shared secret per run and never stores it');
  const vpn: NativeVpn = { type: 'classic', routing: 'static', gateways: 1, tunnels: 1, ikeVersion: 1 };
  if (s['tunnel_count'] !== undefined) vpn.tunnels = readInt(s['tunnel_count'], [...servicePath, 'tunnel_count'], 1, 8, problems) ?? 1;
  const gatewayCount = config['vpn_service_gateway_count'] ?? s['gateway_count'];
  const gatewayPath = config['vpn_service_gateway_count'] !== undefined ? [...base, 'vpn_service_gateway_count'] : [...servicePath, 'gateway_count'];
  if (gatewayCount !== undefined) vpn.gateways = readInt(gatewayCount, gatewayPath, 1, 4, problems) ?? 1;
  if (s['ike_version'] !== undefined) vpn.ikeVersion = (readInt(s['ike_version'], [...servicePath, 'ike_version'], 1, 2, problems) ?? 1) as 1 | 2;
  const routing = s['routing_type'];
  if (routing !== undefined) {
    if (routing === 'static' || routing === 'dynamic') vpn.routing = routing;
    else problems.error([...servicePath, 'routing_type'], 'expected static or dynamic');
  }
  if (vpn.routing === 'dynamic') {
    // Dynamic routing on GCP is HA VPN + Cloud Router (BGP), and HA VPN speaks IKEv2 only.
    vpn.type = 'ha';
    if (s['ike_version'] === undefined) vpn.ikeVersion = 2;
    else if (vpn.ikeVersion === 1) problems.error([...servicePath, 'ike_version'], 'routing_type dynamic is an HA VPN, which requires IKE version 2');
  }
  for (const vm of vms) {
    const group = names[groups.indexOf(vm.group)]!;
    vm.fields['vpcGroup'] = group;
    vm.fields['vpn'] = { ...vpn };
    (vm.origins as [string, Path][]).push(['vpcGroup', vm.path], ['vpn', service !== undefined ? servicePath : base]);
  }
  return true;
}
