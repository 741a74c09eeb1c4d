import { parseProcNetDev, parseProtoCounters, parseSoftnetStat, type InterfaceCounters, type SoftnetCounters } from './proc-net.js';
import { parseProcStat, type CpuTimes } from './proc-stat.js';
import { parseQdiscStats, type QdiscCounters } from './qdisc-stats.js';
import { splitSections } from './read-counters.js';
import { parseSocketInfo, type SocketInfo } from './socket-info.js';

/** Everything one counter read of a host saw, at one moment. */
export interface HostCounters {
  /** Milliseconds since the epoch, on the controller, when the read returned. */
  readonly at: number;
  readonly cpus: readonly CpuTimes[];
  /** `/proc/net/snmp` and `/proc/net/netstat` as `Proto.Name` (e.g. `Tcp.RetransSegs`, `Udp.RcvbufErrors`, `TcpExt.TCPLostRetransmit`). */
  readonly protocols: ReadonlyMap<string, number>;
  readonly interfaces: readonly InterfaceCounters[];
  readonly softnet: readonly SoftnetCounters[];
  readonly qdiscs: readonly QdiscCounters[];
  readonly sockets: readonly SocketInfo[];
  /** The interface toward the peer the read was given, and its MTU. */
  readonly route?: { readonly dev: string; readonly mtu?: number };
  /** `ethtool -S` of that interface, where the NIC has statistics (ENA: `bw_out_allowance_exceeded`, `pps_allowance_exceeded`, …). */
  readonly nic: ReadonlyMap<string, number>;
}

/** Parse the output of `counterReadArgv`; a part the host could not read is empty, never an error. */
export function parseHostCounters(output: string, at: number): HostCounters {
  const part = splitSections(output);
  const text = (name: string) => part.get(name) ?? '';
  const protocols = new Map([...parseProtoCounters(text('/proc/net/snmp')), ...parseProtoCounters(text('/proc/net/netstat'))]);
  return {
    at,
    cpus: parseProcStat(text('/proc/stat')),
    protocols,
    interfaces: parseProcNetDev(text('/proc/net/dev')),
    softnet: parseSoftnetStat(text('/proc/net/softnet_stat')),
    qdiscs: parseQdiscStats(text('tc')),
    sockets: parseSocketInfo(text('ss')),
    nic: parseEthtoolStats(text('ethtool')),
    ...routeOf(text('route')),
  };
}

function routeOf(text: string): { route?: HostCounters['route'] } {
  const [dev, mtu] = text.split(/\s+/);
  if (!dev) return {};
  const n = Number(mtu);
  return { route: { dev, ...(Number.isInteger(n) && n > 0 ? { mtu: n } : {}) } };
}

/** `ethtool -S`: `     name: value` lines under `NIC statistics:`. */
export function parseEthtoolStats(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^\s+([\w.[\]-]+):\s+(\d+)\s*$/.exec(line);
    if (m) out.set(m[1]!, Number(m[2]));
  }
  return out;
}
