import type { TrialExplainRecord } from './run-record.js';

/**
 * One named counter of one end of a trial, as `compare` shows it and the
 * PerfKit-style export writes it: a built-in one read from the host
 * (`tcp_retrans_segs`) or one a tool plugin added (`iperf3.server_cpu_total`).
 */
export interface KeyCounter {
  /** `tcp_retrans_segs`, `qdisc_drops`, …; a tool's own counters are prefixed with the tool (`iperf3.client_cpu_total`). */
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  /** The end it was read on (absent: a tool counter that names no end). */
  readonly host?: string;
  readonly role?: 'client' | 'server';
  /** `counters` (the host's, read by netbench) or the tool that reported it. */
  readonly source: string;
}

/** The part of a stored end's counters (core's `HostExplain`) the key counters come from; every field is read defensively. */
interface StoredEnd {
  readonly host: string;
  readonly role: 'client' | 'server';
  readonly protocols?: Readonly<Record<string, number>>;
  readonly qdiscs?: readonly { readonly drops?: number; readonly overlimits?: number }[];
  readonly softnet?: readonly { readonly dropped?: number }[];
  readonly cpus?: readonly { readonly busy?: number }[];
  /** `steady`: the CPU shares are of the 25–75 % window; `whole`: of a trial too short for one (not a finding's basis). */
  readonly cpuWindow?: 'steady' | 'whole';
}

const PROTOCOLS: readonly (readonly [string, string, string])[] = [
  ['tcp_retrans_segs', 'Tcp.RetransSegs', 'segments'],
  ['tcp_out_segs', 'Tcp.OutSegs', 'segments'],
  ['udp_rcvbuf_errors', 'Udp.RcvbufErrors', 'datagrams'],
  ['udp_in_errors', 'Udp.InErrors', 'datagrams'],
];

const finite = (n: unknown): number => (typeof n === 'number' && Number.isFinite(n) ? n : 0);
const sum = <T>(items: readonly T[] | undefined, of: (item: T) => unknown) => (items ?? []).reduce((total, item) => total + finite(of(item)), 0);

/**
 * The key counters of a trial, per end: TCP segments retransmitted and sent,
 * UDP receive-buffer and input errors (`/proc/net/snmp` increments; 0 when
 * they did not move), qdisc drops and overlimits and softnet backlog drops
 * (summed over the host's qdiscs and CPUs), the busiest CPU's busy share
 * (percent, of the steady window a trial of 5 s or more has), then the counters tool plugins
 * added (`ToolPlugin.counters`).
 */
export function keyCounters(explain: TrialExplainRecord): KeyCounter[] {
  const out: KeyCounter[] = [];
  for (const end of explain.hosts as readonly StoredEnd[]) {
    const at = { host: end.host, role: end.role, source: 'counters' };
    for (const [name, key, unit] of PROTOCOLS) out.push({ name, value: finite(end.protocols?.[key]), unit, ...at });
    out.push(
      { name: 'qdisc_drops', value: sum(end.qdiscs, (q) => q.drops), unit: 'packets', ...at },
      { name: 'qdisc_overlimits', value: sum(end.qdiscs, (q) => q.overlimits), unit: 'packets', ...at },
      { name: 'softnet_dropped', value: sum(end.softnet, (s) => s.dropped), unit: 'packets', ...at },
    );
    // Only a steady window's: a short trial's whole-trial shares are mostly the tools starting and stopping.
    const busy = end.cpuWindow === 'steady' ? (end.cpus ?? []).map((c) => finite(c.busy)) : [];
    if (busy.length > 0) out.push({ name: 'cpu_busiest_busy', value: Math.round(Math.max(...busy) * 1000) / 10, unit: 'percent', ...at });
  }
  for (const c of explain.toolCounters ?? []) {
    out.push({
      name: `${c.tool}.${c.name}`,
      value: c.value,
      unit: c.unit,
      source: c.tool,
      ...(c.host !== undefined ? { host: c.host } : {}),
      ...(c.role !== undefined ? { role: c.role } : {}),
    });
  }
  return out;
}
