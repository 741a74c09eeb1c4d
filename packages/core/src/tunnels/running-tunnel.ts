import type { LedgerResource } from '@netbench/plugin-api';
import type { EndpointUndo } from './commands.js';
import type { ResolvedTunnel, TunnelImplementation } from './tunnel-schema.js';

/** The ledger's plugin name for tunnel ends: teardown and `netbench cleanup` undo them from the entry alone. */
export const TUNNELS_LEDGER = 'tunnels';
export const ENDPOINT_RESOURCE = 'tunnel-endpoint';
/**
 * Each end's copy of its ledger entry, in its directory: what `cleanup --all`
 * undoes for a run whose ledger is not at hand, and the proof that netbench
 * made the directory (no entry, no sweep).
 */
export const ENDPOINT_RECORD = 'ledger-entry.json';

/** A tunnel that is up (or partly set up): what trials target and labels, and what teardown undoes. */
export interface RunningTunnel {
  readonly tunnel: ResolvedTunnel;
  /** Fleet ids of `between[0]` and `between[1]`. */
  readonly hosts: readonly [string, string];
  readonly implementation: TunnelImplementation;
  /** The ledger resources of both ends, in order. */
  readonly resources: LedgerResource[];
  /** Set once both ends work. */
  up: boolean;
}

/** What the ledger keeps of one end: enough to undo it in a fresh process. */
export interface EndpointData extends EndpointUndo {
  readonly runId: string;
  readonly tunnel: string;
  readonly type: string;
  /** The host shares this machine's processes and `/dev/shm` (the local lab): cleanup can undo it without a transport. */
  readonly sameMachine: boolean;
}

/** `dir`: the directory the entry must name (an end found on disk), instead of any netbench tunnel directory. */
export function endpointData(resource: LedgerResource, dir?: string): EndpointData | undefined {
  const data = resource.data as Partial<EndpointData> | undefined;
  if (!data || typeof data.dir !== 'string' || typeof data.iface !== 'string') return undefined;
  // Only ever undo what lies in a netbench tunnel directory, whatever a ledger file says.
  const inPlace = dir === undefined ? /^\/dev\/shm\/netbench-[A-Za-z0-9_-]+\/[A-Za-z0-9_-]+-[ab]$/.test(data.dir) : data.dir === dir;
  if (!inPlace || !/^nb[a-z0-9]{1,13}$/.test(data.iface)) return undefined;
  if (data.socket !== undefined && data.socket !== `/var/run/wireguard/${data.iface}.sock`) return undefined;
  if (data.loAddress !== undefined && !/^\d{1,3}(\.\d{1,3}){3}$/.test(data.loAddress)) return undefined;
  return data as EndpointData;
}

/** Labels every sample of a trial carries: the tunnel it went through, or `none` for the plain path. */
export function tunnelLabels(running: RunningTunnel | undefined): Record<string, string | number> {
  if (!running) return { tunnel: 'none', tunnel_type: 'none' };
  const { tunnel } = running;
  return {
    tunnel: tunnel.name,
    tunnel_type: tunnel.type,
    tunnel_implementation: running.implementation,
    tunnel_cipher: tunnel.cipher,
    tunnel_mtu: tunnel.mtu,
    ...(tunnel.type === 'ipsec' ? { tunnel_ike: `v${tunnel.ike}`, tunnel_ike_proposal: tunnel.ikeProposal } : {}),
  };
}
