import { keyCounters, type Scalar, type TrialDiagnosis, type TrialRecord } from '@netbench/plugin-api';
import { median } from './quantile.js';

/** One trial of a side, with the run it belongs to. */
export interface SideTrial {
  readonly runId: string;
  readonly trial: TrialRecord;
}

/** One side's values of a counter: one per trial (a run's repetition), never pooled across configurations. */
export interface CounterSide {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  /** Trials (repetitions of runs) behind it. */
  readonly n: number;
  readonly values: readonly number[];
}

export interface ComparedCounter {
  /** `tcp_retrans_segs`, `qdisc_drops`, `cpu_busiest_busy`, a tool's `iperf3.server_cpu_total` (keyCounters). */
  readonly name: string;
  readonly unit: string;
  /** Absent on a side none of whose trials has it (no CPU window, a tool that did not report it). */
  readonly baseline?: CounterSide;
  readonly candidate?: CounterSide;
}

/** One rule found on a side: in how many of its trials, and a short form of its median finding (`shaped-link 95 % of 50 Mbit/s`). */
export interface LimitSummary {
  /** The rule, or `none` for the trials where no limit was found. */
  readonly rule: string;
  readonly text: string;
  readonly trials: number;
  readonly of: number;
}

/** A configuration's counters and diagnoses on each side (`netbench compare`, docs/explain.md). */
export interface ConfigurationCounters {
  /** `shaped · iperf3 tcp · reverse=true streams=1`: benchmark, tool, test and the parameters (repetition left out). */
  readonly configuration: string;
  readonly benchmark: string;
  readonly tool: string;
  readonly test: string;
  readonly params: Readonly<Record<string, Scalar>>;
  /** Trials read on each side (succeeded, with counters). */
  readonly trials: { readonly baseline: number; readonly candidate: number };
  readonly counters: readonly ComparedCounter[];
  readonly limitedBy: { readonly baseline: readonly LimitSummary[]; readonly candidate: readonly LimitSummary[] };
}

// Parameters that number a trial's repetition or placement in the plan, not what it measured.
const NOT_CONFIGURATION = new Set(['repetition']);
// Shown even when every trial read 0: that nothing moved is the news.
const ALWAYS = new Set(['tcp_retrans_segs', 'qdisc_drops']);

function configurationKey(t: TrialRecord): string {
  const params = Object.keys(t.params)
    .filter((k) => !NOT_CONFIGURATION.has(k))
    .sort()
    .map((k) => [k, t.params[k]]);
  return JSON.stringify([t.benchmarkName, t.tool, t.test, params]);
}

/**
 * Each configuration both sides measured (benchmark, tool, test and
 * parameters but the repetition), with each side's key counters — one value
 * per trial (the counter's largest value over the trial's ends, so one
 * shared namespace is not counted twice) — and the rules found on each
 * side. Trials without counters (counters off, failed trials) are left out;
 * configurations only one side has are left out (compare lists them).
 */
export function compareCounters(baseline: readonly SideTrial[], candidate: readonly SideTrial[]): ConfigurationCounters[] {
  const group = (side: readonly SideTrial[]) => {
    const out = new Map<string, TrialRecord[]>();
    for (const { trial } of side) {
      if (trial.status !== 'succeeded' || !trial.explain) continue;
      const key = configurationKey(trial);
      out.set(key, [...(out.get(key) ?? []), trial]);
    }
    return out;
  };
  const [a, b] = [group(baseline), group(candidate)];
  const rows: ConfigurationCounters[] = [];
  for (const [key, aTrials] of a) {
    const bTrials = b.get(key);
    if (!bTrials) continue;
    const first = aTrials[0]!;
    const params = Object.fromEntries(Object.entries(first.params).filter(([k]) => !NOT_CONFIGURATION.has(k)));
    const [aValues, bValues] = [aTrials.map(trialCounters), bTrials.map(trialCounters)];
    const names = [...new Map([...aValues, ...bValues].flatMap((m) => [...m].map(([name, c]) => [name, c.unit] as const)))];
    const counters = names.flatMap(([name, unit]): ComparedCounter[] => {
      const [x, y] = [side(aValues, name), side(bValues, name)];
      const moved = [x, y].some((s) => s !== undefined && s.max !== 0);
      return moved || ALWAYS.has(name) ? [{ name, unit, ...(x ? { baseline: x } : {}), ...(y ? { candidate: y } : {}) }] : [];
    });
    rows.push({
      configuration: `${first.benchmarkName} · ${first.tool} ${first.test}${
        Object.keys(params).length > 0
          ? ` · ${Object.entries(params)
              .map(([k, v]) => `${k}=${String(v)}`)
              .join(' ')}`
          : ''
      }`,
      benchmark: first.benchmarkName,
      tool: first.tool,
      test: first.test,
      params,
      trials: { baseline: aTrials.length, candidate: bTrials.length },
      counters,
      limitedBy: { baseline: limits(aTrials), candidate: limits(bTrials) },
    });
  }
  return rows;
}

/** A trial's value of each counter: the largest over its ends. */
function trialCounters(trial: TrialRecord): Map<string, { value: number; unit: string }> {
  const out = new Map<string, { value: number; unit: string }>();
  for (const c of keyCounters(trial.explain!)) {
    const seen = out.get(c.name);
    if (!seen || c.value > seen.value) out.set(c.name, { value: c.value, unit: c.unit });
  }
  return out;
}

function side(trials: readonly Map<string, { value: number }>[], name: string): CounterSide | undefined {
  const values = trials.flatMap((t) => (t.has(name) ? [t.get(name)!.value] : []));
  if (values.length === 0) return undefined;
  return { median: median(values), min: Math.min(...values), max: Math.max(...values), n: values.length, values };
}

/** The rules found on a side's trials, most frequent first, each with its median finding's short form; then `no limit found`. */
function limits(trials: readonly TrialRecord[]): LimitSummary[] {
  const byRule = new Map<string, TrialDiagnosis[]>();
  let clear = 0;
  for (const t of trials) {
    const diagnoses = t.explain!.diagnoses;
    if (diagnoses.length === 0) clear += 1;
    // A rule found twice in one trial (two hot CPUs) counts that trial once, by its strongest finding.
    const perRule = new Map<string, TrialDiagnosis>();
    for (const d of diagnoses) {
      const seen = perRule.get(d.rule);
      if (!seen || (figure(d) ?? 0) > (figure(seen) ?? 0)) perRule.set(d.rule, d);
    }
    for (const [rule, d] of perRule) byRule.set(rule, [...(byRule.get(rule) ?? []), d]);
  }
  const out = [...byRule]
    .map(([rule, found]) => {
      const sorted = [...found].sort((x, y) => (figure(x) ?? 0) - (figure(y) ?? 0));
      return { rule, text: shortDiagnosis(sorted[Math.floor((sorted.length - 1) / 2)]!), trials: found.length, of: trials.length };
    })
    .sort((x, y) => y.trials - x.trials);
  return clear > 0 ? [...out, { rule: 'none', text: 'no limit found', trials: clear, of: trials.length }] : out;
}

const num = (d: TrialDiagnosis, key: string) => (typeof d.evidence[key] === 'number' ? (d.evidence[key] as number) : undefined);
const pct = (share: number) => `${Math.round(share * 100)} %`;
const rate = (bps: number) => (bps >= 1e9 ? `${Number((bps / 1e9).toPrecision(3))} Gbit/s` : `${Number((bps / 1e6).toPrecision(3))} Mbit/s`);

/** The number a rule's findings are ordered by (the median one is shown). */
function figure(d: TrialDiagnosis): number | undefined {
  const [throughput, rateBps, cap] = [num(d, 'throughput'), num(d, 'rate'), num(d, 'cap')];
  if (d.rule === 'shaped-link' && throughput !== undefined && rateBps) return throughput / rateBps;
  if (d.rule === 'cloud-flow-cap' && throughput !== undefined && cap) return throughput / cap;
  if (d.rule === 'retransmits') return (num(d, 'retransSegs') ?? 0) / Math.max(1, num(d, 'outSegs') ?? 1);
  return (
    num(d, 'busy') ??
    num(d, 'rcvbufErrors') ??
    num(d, 'drops') ??
    num(d, 'dropped') ??
    num(d, 'rwndLimitedPct') ??
    num(d, 'sndbufLimitedPct') ??
    num(d, 'steal') ??
    num(d, 'othersCpus') ??
    num(d, 'increase')
  );
}

/** `shaped-link 95 % of 50 Mbit/s`, `cpu-bound CPU 1 100 %`, `retransmits 2 %`, `receive-buffer 1,024 dropped`: a finding in a few words. */
export function shortDiagnosis(d: TrialDiagnosis): string {
  const f = figure(d);
  const n = (key: string) => (num(d, key) ?? 0).toLocaleString('en-US');
  switch (d.rule) {
    case 'shaped-link':
      return `shaped-link ${pct(f ?? 0)} of ${rate(num(d, 'rate') ?? 0)}`;
    case 'cloud-flow-cap':
      return `cloud-flow-cap ${pct(f ?? 0)} of ${rate(num(d, 'cap') ?? 0)}`;
    case 'cpu-bound':
    case 'tool-bound':
      return `${d.rule} CPU ${n('cpu')} ${pct(num(d, 'busy') ?? 0)}`;
    case 'retransmits':
      return `retransmits ${((f ?? 0) * 100).toPrecision(2)} %`;
    case 'receive-buffer':
      return `receive-buffer ${n('rcvbufErrors')} dropped`;
    case 'queue-drops':
      return `queue-drops ${n('drops')}`;
    case 'backlog-drops':
      return `backlog-drops ${n('dropped')}`;
    case 'receive-window':
      return `receive-window ${n('rwndLimitedPct')} %`;
    case 'send-buffer':
      return `send-buffer ${n('sndbufLimitedPct')} %`;
    case 'steal':
      return `steal ${pct(num(d, 'steal') ?? 0)}`;
    case 'busy-machine':
      return `busy-machine ${(num(d, 'othersCpus') ?? 0).toFixed(1)} CPUs`;
    case 'mtu-mismatch':
      return `mtu-mismatch ${Object.entries(d.evidence)
        .map(([k, v]) => `${k} ${String(v)}`)
        .join(', ')}`;
    default:
      return d.rule;
  }
}
