import { type InterfaceCounters, parseProcNetDev, parseProtoCounters, parseSoftnetStat, type SoftnetCounters } from './proc-net.js';
import { type CpuTimes, parseProcStat } from './proc-stat.js';
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
  /** The interface toward each peer the read was given as `routes` (a synchronized-flows trial's), and its MTU. */
  readonly routes?: readonly PeerRoute[];
  /** `ethtool -S` of that interface, where the NIC has statistics (ENA: `bw_out_allowance_exceeded`, `pps_allowance_exceeded`, …). */
  readonly nic: ReadonlyMap<string, number>;
  /** Processes in the host's network namespace (the reader's own left out), by `pid:starttime`. */
  readonly processes: ReadonlyMap<string, ProcessTimes>;
}

/** The interface toward one peer and its MTU. */
export interface PeerRoute {
  readonly peer: string;
  readonly dev: string;
  readonly mtu?: number;
}

/** One process's CPU time since it started, from `/proc/PID/stat`. */
export interface ProcessTimes {
  readonly pid: number;
  readonly comm: string;
  /** utime + stime, in clock ticks (USER_HZ, 100 a second). */
  readonly ticks: number;
  /** The CPU it last ran on. */
  readonly cpu: number;
}

/** The commands of the counter read itself (`find … | sed | xargs cat`): not the host's work. */
const READER = new Set(['find', 'sed', 'xargs', 'cat']);

/** `/proc/PID/stat` lines: pid, (comm), state, ppid, … utime (14), stime (15), starttime (22), processor (39). */
export function parseProcesses(text: string): Map<string, ProcessTimes> {
  const rows = text.split('\n').flatMap((line) => {
    const close = line.lastIndexOf(')');
    const open = line.indexOf('(');
    if (open < 0 || close < open) return [];
    const pid = Number(line.slice(0, open).trim());
    const fields = line.slice(close + 2).split(' ');
    // fields[0] is field 3 (state): field N is fields[N - 3].
    const [ppid, utime, stime, start, cpu] = [fields[1], fields[11], fields[12], fields[19], fields[36]].map(Number);
    if (!Number.isInteger(pid) || !Number.isFinite(utime!) || !Number.isFinite(stime!)) return [];
    return [{ pid, ppid: ppid!, comm: line.slice(open + 1, close), ticks: utime! + stime!, start: start!, cpu: Number.isInteger(cpu) ? cpu! : -1 }];
  });
  // The reader's own processes, and the shell that ran them (their parent).
  const readerParents = new Set(rows.filter((r) => READER.has(r.comm)).map((r) => r.ppid));
  const out = new Map<string, ProcessTimes>();
  for (const r of rows) if (!READER.has(r.comm) && !readerParents.has(r.pid)) out.set(`${r.pid}:${r.start}`, { pid: r.pid, comm: r.comm, ticks: r.ticks, cpu: r.cpu });
  return out;
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
    processes: parseProcesses(text('procs')),
    ...routeOf(text('route')),
    ...peerRoutesOf(text('routes')),
  };
}

function routeOf(text: string): { route?: HostCounters['route'] } {
  const [dev, mtu] = text.split(/\s+/);
  if (!dev) return {};
  const n = Number(mtu);
  return { route: { dev, ...(Number.isInteger(n) && n > 0 ? { mtu: n } : {}) } };
}

/** `PEER DEV MTU` lines, one per peer the read was given. */
function peerRoutesOf(text: string): { routes?: PeerRoute[] } {
  const routes = text.split('\n').flatMap((line): PeerRoute[] => {
    const [peer, dev, mtu] = line.trim().split(/\s+/);
    if (!peer || !dev) return [];
    const n = Number(mtu);
    return [{ peer, dev, ...(Number.isInteger(n) && n > 0 ? { mtu: n } : {}) }];
  });
  return routes.length > 0 ? { routes } : {};
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
