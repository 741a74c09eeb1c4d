import { type PkbFlags, readBoolean, readChoice } from './flags.js';
import { regionOfZone } from './host-fields.js';
import type { Problems } from './problems.js';
import type { PkbVm } from './vms.js';

export type IpType = 'external' | 'internal';

/** PKB's `--ip_addresses`: which addresses network benchmarks target. */
export type IpAddresses = 'REACHABLE' | 'BOTH' | 'INTERNAL' | 'EXTERNAL';
const IP_ADDRESSES: readonly IpAddresses[] = ['REACHABLE', 'BOTH', 'INTERNAL', 'EXTERNAL'];

export interface Reachability {
  /**
   * The `ip_addresses` flag and whether the config set it. PKB's default is
   * INTERNAL (since January 2024; REACHABLE before).
   */
  readonly mode: IpAddresses;
  readonly explicit: boolean;
  /** `use_vpn`: PKB joins the groups' networks with a VPN, so internal addresses reach. */
  readonly vpn: boolean;
  /** Internal addresses assumed reachable though PKB would test it (zones vary by cell); warned once. */
  readonly assumed: Set<string>;
  /** Pairs PKB's default (INTERNAL) would aim at unreachable internal addresses; measured on external ones instead, warned once. */
  readonly unreachable: Set<string>;
}

/** PKB's `--ip_addresses` default since January 2024. */
export const PKB_DEFAULT_IP_ADDRESSES: IpAddresses = 'INTERNAL';

export function readReachability(flags: PkbFlags, problems: Problems): Reachability {
  const modeFlag = flags.get('ip_addresses');
  const mode = modeFlag ? readChoice(modeFlag, IP_ADDRESSES, problems) : undefined;
  const vpnFlag = flags.get('use_vpn');
  const vpn = vpnFlag ? readBoolean(vpnFlag, problems) : undefined;
  return { mode: mode?.ok ? mode.value : PKB_DEFAULT_IP_ADDRESSES, explicit: mode?.ok === true, vpn: vpn?.ok === true && vpn.value, assumed: new Set(), unreachable: new Set() };
}

/**
 * The addresses PKB targets from `client` to `server`, external first (PKB's
 * order): external for REACHABLE/BOTH/EXTERNAL; internal for BOTH/INTERNAL,
 * and for REACHABLE when the client reaches the server's internal address.
 * With the flag unset (PKB's default INTERNAL) a pair that cannot reach
 * each other's internal addresses (across clouds, regions of AWS/Azure,
 * separate CIDRs) would fail in PKB; netbench measures its external
 * addresses instead and warns (`unreachable`).
 * PKB tests that by pinging at run time; netbench decides it from the
 * config: same cloud network (GCP: one global VPC per run unless the groups
 * ask for distinct `cidr`s, which PKB puts in separate networks; AWS and
 * Azure: same region), or a VPN.
 */
export function ipTypes(reach: Reachability, client: PkbVm, server: PkbVm): IpType[] {
  if (!reach.explicit) {
    if (reachable(reach, client, server)) return ['internal'];
    reach.unreachable.add(`${client.host}/${server.host}`);
    return ['external'];
  }
  const out: IpType[] = [];
  if (reach.mode !== 'INTERNAL') out.push('external');
  if (reach.mode === 'BOTH' || reach.mode === 'INTERNAL' || (reach.mode === 'REACHABLE' && reachable(reach, client, server))) out.push('internal');
  return out;
}

export function reachable(reach: Reachability, a: PkbVm, b: PkbVm): boolean {
  if (reach.vpn) return true;
  if (a.cloud === 'static' && b.cloud === 'static') return a.internalIp && b.internalIp;
  // PKB's Docker VMs are containers on one bridge (netbench's docker hosts and the local lab's namespaces are too).
  if ((a.cloud === 'local' || a.cloud === 'docker') && a.cloud === b.cloud) return true;
  if (a.cloud !== b.cloud || a.cloud === 'static' || a.cloud === 'local' || a.cloud === 'docker') return false;
  if ((a.cidr ?? '') !== (b.cidr ?? '')) return false;
  if (a.cloud === 'gcp') return true;
  // AWS VPCs and Azure VNets are regional: PKB makes one per region.
  if (a.zone === undefined || b.zone === undefined) return true;
  if (a.zone.includes('${') || b.zone.includes('${')) {
    if (a.zone !== b.zone) reach.assumed.add(`${a.host}/${b.host}`);
    return true;
  }
  return regionOfZone(a.cloud, a.zone) === regionOfZone(b.cloud, b.zone);
}

/**
 * The netbench address type that reaches `server` the way PKB does. A static
 * VM without `internal_ip` has one address, PKB's `ip_address`, which PKB
 * calls external; the static plugin calls a host's only address internal.
 * A Docker container's one address is PKB's `ip_address` too (a docker
 * host's internal address); a local-lab host has only an internal one. So trials aimed at them use `internal`: the
 * same address PKB targets.
 */
export function targetIp(server: PkbVm, ip: IpType): IpType {
  return hasSingleAddress(server) ? 'internal' : ip;
}

/** A host netbench knows one (internal) address of (see `targetIp`). */
export function hasSingleAddress(vm: PkbVm): boolean {
  return (vm.cloud === 'static' && !vm.internalIp) || vm.cloud === 'local' || vm.cloud === 'docker';
}
