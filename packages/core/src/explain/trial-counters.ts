import type { Host, Sample } from '@netbench/plugin-api';
import { type CounterDelta, counterDelta } from './counter-delta.js';
import { type CpuSeries, cpuSeriesOf, SERIES_MIN_SECONDS } from './cpu-series.js';
import { startCpuTicker } from './cpu-ticker.js';
import { type Diagnosis, diagnose, type HostEvidence, type ProcessShare, type TrialEvidence } from './diagnosis.js';
import { type HostCounters, parseHostCounters } from './host-counters.js';
import { counterReadArgv, splitSections } from './read-counters.js';
import type { SocketInfo } from './socket-info.js';

/** One end of a trial whose counters are read. */
export interface CountedHost {
  readonly role: 'client' | 'server';
  readonly host: Host;
  /** CPUs the trial pinned this end's tool to (`cpu_client`/`cpu_server`). */
  readonly pinnedCpus?: readonly number[];
  /** This end receives the bulk of the traffic (the server of a forward stream). */
  readonly receives: boolean;
  /** The addresses of this end's peers in a synchronized-flows trial: the start read takes the interface and MTU toward each. */
  readonly routePeers?: readonly string[];
}

/** What one host's counters said over a trial, as stored with the trial (`TrialRecord.explain`). */
export interface HostExplain {
  readonly host: string;
  readonly role: 'client' | 'server';
  /** The interface toward the other end and its MTU. */
  readonly route?: { readonly dev: string; readonly mtu?: number };
  /** A synchronized-flows trial's end: the interface toward each of its peers and its MTU. */
  readonly routes?: HostCounters['routes'];
  readonly seconds: number;
  /** Each CPU's shares: between the 25 % and 75 % reads (`steady`) of a long trial, else over the whole trial. */
  readonly cpus: CounterDelta['cpus'];
  readonly cpuWindow: 'steady' | 'whole';
  /** Increments of the protocol counters that changed (`Tcp.RetransSegs`, `Udp.RcvbufErrors`, …). */
  readonly protocols: Readonly<Record<string, number>>;
  readonly interfaces: CounterDelta['interfaces'];
  readonly softnet: CounterDelta['softnet'];
  readonly qdiscs: CounterDelta['qdiscs'];
  /** Increments of the NIC's `ethtool -S` counters (ENA's allowance counters among them). */
  readonly nic?: Readonly<Record<string, number>>;
  /** The host's processes (its network namespace) and the share of a CPU each used in the steady window, when there is one. */
  readonly processes?: readonly ProcessShare[];
  /** The trial's TCP sockets toward the other end, read while it ran. */
  readonly sockets: readonly SocketInfo[];
  /** Each CPU's utilisation per interval, in a trial of `SERIES_MIN_SECONDS` or more (docs/explain.md). */
  readonly cpuSeries?: CpuSeries;
}

/** A trial's counters and what the rules found in them. */
export interface TrialExplain {
  /** Every rule's findings; empty: no limit found. */
  readonly diagnoses: readonly Diagnosis[];
  readonly hosts: readonly HostExplain[];
  /** What could not be read (a host without `sh`, a time-out): the trial itself is never failed by it. */
  readonly notes?: readonly string[];
}

interface Read {
  readonly counters: HostCounters;
  readonly machine: string;
}

const READ_TIMEOUT_MS = 5_000;
/** Mid-trial reads (the steady CPU window, its processes, the TCP sockets' state) only in trials this long. */
export const MID_READ_MIN_SECONDS = 5;

async function readOnce(host: Host, peer: string | undefined, parts: { sockets?: boolean; processes?: boolean; routes?: readonly string[] }, signal: AbortSignal): Promise<Read> {
  const result = await host.exec(counterReadArgv(peer, parts), { timeoutMs: READ_TIMEOUT_MS, signal });
  if (result.code !== 0) throw new Error(`counter read exited ${result.code}: ${result.stderr.trim().split('\n')[0] ?? ''}`);
  const machine = splitSections(result.stdout).get('/proc/sys/kernel/random/boot_id')?.split('\n')[0]?.trim() || host.id;
  return { counters: parseHostCounters(result.stdout, Date.now()), machine };
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Counters of every end of a trial: read once when it starts, at 25 % and 75 %
 * of its expected length when it is long enough (`MID_READ_MIN_SECONDS`; the
 * second also takes `ss -ti` of the sockets toward the peer, which the end
 * read would find closed) and once when it ends — one process per read per host;
 * in a trial of `SERIES_MIN_SECONDS` or more, also each CPU's times every
 * `seriesSeconds` (the tool's interval; `startCpuTicker`).
 * `finish` returns the deltas and the diagnosis; a read that fails becomes a
 * note, never a trial failure.
 */
export function startTrialCounters(
  ends: readonly CountedHost[],
  peers: Readonly<Record<string, string>>,
  expectedSeconds: number,
  signal: AbortSignal,
  flowCap?: TrialEvidence['flowCap'],
  seriesSeconds = 1,
) {
  const notes: string[] = [];
  // A long trial's CPUs are also read at the tool's interval: the utilisation over time, charted beside its throughput.
  const tickers = expectedSeconds >= SERIES_MIN_SECONDS ? ends.map((end) => startCpuTicker(end.host, seriesSeconds, signal)) : undefined;
  const stopTickers = () => Promise.all((tickers ?? []).map((t) => t.stop()));
  const attempt = (end: CountedHost, peer: string | undefined, when: string, parts: { sockets?: boolean; processes?: boolean; routes?: readonly string[] } = {}) =>
    readOnce(end.host, peer, parts, signal).catch((error: unknown) => {
      notes.push(`${end.role} ${end.host.name}: ${when} counter read failed: ${errorText(error)}`);
      return undefined;
    });
  // The start read is also given the peer: the interface toward it and its MTU (its sockets then are older trials', unused).
  const before = Promise.all(ends.map((end) => attempt(end, peers[end.role], 'start', end.routePeers ? { routes: end.routePeers } : {})));
  // A long trial is also read at 25 % and 75 % of its length: the CPU shares between those two reads are the
  // steady state (start-up and wind-down left out), and the second read takes the TCP sockets while they are open.
  const early = new Map<CountedHost, Read>();
  const late = new Map<CountedHost, Read>();
  let pending: Promise<unknown>[] = [];
  const at = (share: number, into: Map<CountedHost, Read>, withSockets: boolean) =>
    setTimeout(
      () => {
        pending.push(
          Promise.all(
            ends.map(async (end) => {
              const read = await attempt(end, withSockets ? peers[end.role] : undefined, 'mid-trial', { processes: true, ...(withSockets ? { sockets: true } : {}) });
              if (read) into.set(end, read);
            }),
          ),
        );
      },
      expectedSeconds * 1000 * share,
    );
  const timers = expectedSeconds >= MID_READ_MIN_SECONDS ? [at(0.25, early, false), at(0.75, late, true)] : [];
  const stopTimers = () => {
    for (const t of timers) clearTimeout(t);
  };
  return {
    /** The deltas and the rules' findings; `samples` are the trial's (its throughput is what the shaping rule compares). */
    async finish(tool: string, test: string, samples: readonly Sample[]): Promise<TrialExplain> {
      stopTimers();
      const ticked = await stopTickers();
      await Promise.all(pending);
      pending = [];
      const [start, end] = [await before, await Promise.all(ends.map((e) => attempt(e, peers[e.role], 'end')))];
      const evidence: HostEvidence[] = [];
      const hosts: HostExplain[] = [];
      ends.forEach((e, i) => {
        const [a, b] = [start[i], end[i]];
        if (!a || !b) return;
        const whole = counterDelta(a.counters, b.counters);
        const [m1, m2] = [early.get(e), late.get(e)];
        // CPU from the steady window, with the processes that used it; a trial too short for one has no CPU
        // findings (its tools exit before the end read, so whose time it was cannot be told). Every other counter: the whole trial.
        const delta = m1 && m2 ? { ...whole, cpus: counterDelta(m1.counters, m2.counters).cpus } : { ...whole, cpus: [] };
        const own = m2 ? [...m2.counters.sockets] : [];
        const processes = m1 && m2 ? processShares(m1.counters, m2.counters) : undefined;
        const mtu = a.counters.route?.mtu ?? smallestMtu(a.counters.routes);
        evidence.push({
          host: e.host.name,
          role: e.role,
          machine: a.machine,
          delta,
          sockets: own,
          receives: e.receives,
          ...(e.pinnedCpus ? { pinnedCpus: e.pinnedCpus } : {}),
          ...(mtu !== undefined ? { mtu } : {}),
          ...(processes ? { processes } : {}),
        });
        const series = ticked[i] && cpuSeriesOf(ticked[i].reads, seriesSeconds, { machine: a.machine, skipped: ticked[i].skipped });
        if (ticked[i]?.failed)
          notes.push(`${e.role} ${e.host.name}: ${ticked[i].failed} of ${ticked[i].failed + ticked[i].reads.length} per-interval CPU reads failed: ${ticked[i].firstError ?? ''}`);
        hosts.push({
          host: e.host.name,
          role: e.role,
          ...(a.counters.route ? { route: a.counters.route } : {}),
          ...(a.counters.routes ? { routes: a.counters.routes } : {}),
          seconds: whole.seconds,
          cpus: m1 && m2 ? delta.cpus : whole.cpus,
          cpuWindow: m1 && m2 ? 'steady' : 'whole',
          protocols: Object.fromEntries(delta.protocols),
          interfaces: delta.interfaces,
          softnet: delta.softnet,
          qdiscs: delta.qdiscs,
          ...(delta.nic ? { nic: Object.fromEntries(delta.nic) } : {}),
          ...(processes ? { processes: processes.filter((p) => p.share >= 0.01) } : {}),
          sockets: own,
          ...(series ? { cpuSeries: series } : {}),
        });
      });
      const throughputBps = trialThroughput(samples);
      const diagnoses =
        evidence.length === 0 ? [] : diagnose({ tool, test, hosts: evidence, ...(throughputBps !== undefined ? { throughputBps } : {}), ...(flowCap ? { flowCap } : {}) });
      return { diagnoses, hosts, ...(notes.length > 0 ? { notes } : {}) };
    },
    /** The trial failed: stop the pending mid-trial reads. */
    cancel(): void {
      stopTimers();
      void stopTickers();
    },
  };
}

/** The smallest MTU toward a flows trial's peers: what the end's largest packets must fit. */
function smallestMtu(routes: HostCounters['routes']): number | undefined {
  const mtus = (routes ?? []).flatMap((r) => (r.mtu !== undefined ? [r.mtu] : []));
  return mtus.length > 0 ? Math.min(...mtus) : undefined;
}

/** USER_HZ: /proc/PID/stat counts CPU time in hundredths of a second on every Linux architecture. */
const TICKS_PER_SECOND = 100;

/** Each process's share of one CPU between two reads (one that started in between: all of its time). */
export function processShares(before: HostCounters, after: HostCounters): ProcessShare[] {
  const seconds = (after.at - before.at) / 1000;
  if (seconds <= 0) return [];
  return [...after.processes]
    .map(([key, p]) => ({ pid: p.pid, comm: p.comm, share: Math.max(0, p.ticks - (before.processes.get(key)?.ticks ?? 0)) / TICKS_PER_SECOND / seconds }))
    .sort((a, b) => b.share - a.share);
}

const MBIT = 1e6;
const THROUGHPUT_RE = /(^|_| )Throughput(_total)?$|^goodput_total$/;

/** A trial's throughput in bit/s: its aggregate when it has flows, else its largest whole (not per-stream or interval) throughput sample. */
export function trialThroughput(samples: readonly Sample[]): number | undefined {
  const whole = samples.filter((s) => THROUGHPUT_RE.test(s.metric) && !/^Sent /.test(s.metric) && s.labels['stream'] === undefined && s.labels['interval_start'] === undefined);
  const aggregates = whole.filter((s) => s.labels['flow'] === 'aggregate');
  const pick = (aggregates.length > 0 ? aggregates : whole.filter((s) => s.labels['flow'] === undefined)).filter(
    (s) => /^Mbits?\/sec$/i.test(s.unit) || s.unit === 'bps' || /^Gbits?\/sec$/i.test(s.unit),
  );
  if (pick.length === 0) return undefined;
  const bps = (s: Sample) => (s.unit === 'bps' ? s.value : /^G/i.test(s.unit) ? s.value * 1e9 : s.value * MBIT);
  return Math.max(...pick.map(bps));
}

/** `0`, `1`, `0-1`, `0,2-3` (a trial's `cpu_client`) as CPU numbers; undefined when unpinned or unreadable. */
export function cpuList(value: unknown): number[] | undefined {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return [value];
  if (typeof value !== 'string' || !/^\d+(-\d+)?(,\d+(-\d+)?)*$/.test(value)) return undefined;
  return value.split(',').flatMap((part) => {
    const [a, b] = part.split('-').map(Number);
    return Array.from({ length: (b ?? a!) - a! + 1 }, (_, i) => a! + i);
  });
}
