import type { RunRecord } from '@netbench/plugin-api';
import { headlineMetric } from '../charts/metric-roles.js';
import { timeFactor } from '../stats/units.js';
import type { LoadHeadline } from './load-headline.js';

/** What the summary reads of a trial's metric (`ShownMetric` of `results show`). */
export interface SummarisedMetric {
  readonly metric: string;
  readonly value: number;
  readonly unit: string;
  readonly p50?: number;
  readonly p90?: number;
  readonly p99?: number;
  readonly p999?: number;
  readonly percentileUnit?: string;
  readonly observations?: number;
}

/** A value with its unit, as the trial's samples carried it. */
export interface Quantity {
  readonly metric: string;
  readonly value: number;
  readonly unit: string;
}

/**
 * One line per trial, as a network engineer reads a run: the headline
 * (throughput, else transaction/request rate, else mean latency: see `trialSummary`), the
 * latency percentiles and the loss.
 */
export interface TrialSummary {
  readonly headline?: Quantity;
  /** p50/p90/p99/p99.9 in `unit`; a percentile the tool did not give is absent (never made up). */
  readonly latency?: {
    readonly unit: string;
    readonly p50?: number;
    readonly p90?: number;
    readonly p99?: number;
    readonly p999?: number;
    /** `tool`: the tool reported these percentiles (netperf's P99_LATENCY); `histogram`: from the samples' latency histograms. */
    readonly source: 'tool' | 'histogram';
    /** Metric (or metric family) they came from. */
    readonly metric: string;
    /** Observations behind them (packets received, histogram counts), when known. */
    readonly n?: number;
    /** Percentiles left out because `n` cannot support them (fewer than `MIN_BEYOND` observations above). */
    readonly hidden?: readonly ('p50' | 'p90' | 'p99' | 'p999')[];
  };
  readonly loss?: Quantity;
  /** A latency-under-load trial: its total goodput and idle → loaded latency (then `headline` is the goodput). */
  readonly load?: LoadHeadline;
  /**
   * Failed requests (HTTP: error statuses, socket errors, timeouts), when
   * there were any: the total, out of how many requests, and by kind (the
   * `error_kind` label: `status`, `connect`, `read`, `write`, `timeout`, …), largest first.
   */
  readonly errors?: { readonly count: number; readonly of?: number; readonly kinds: readonly (readonly [kind: string, count: number])[] };
}

interface ErrorSample {
  readonly metric: string;
  readonly value: number;
  readonly labels: Readonly<Record<string, unknown>>;
}

const ERRORS_RE = /(^|_)Errors$/;
const REQUESTS_RE = /(^|_)Requests$/;

/** A trial's failed requests from its `*_Errors` samples (total: the one without `error_kind`); undefined when none failed. */
export function errorSummary(samples: readonly ErrorSample[]): TrialSummary['errors'] {
  const errors = samples.filter((s) => ERRORS_RE.test(s.metric) && s.labels['stream'] === undefined && s.labels['interval_end'] === undefined);
  const total = errors.find((s) => s.labels['error_kind'] === undefined);
  if (!total || !(total.value > 0)) return undefined;
  const kinds = errors
    .filter((s) => s.labels['error_kind'] !== undefined && s.value > 0)
    .map((s) => [String(s.labels['error_kind']), s.value] as const)
    .sort((a, b) => b[1] - a[1]);
  const of = samples.find((s) => REQUESTS_RE.test(s.metric) && s.labels['error_kind'] === undefined && s.labels['stream'] === undefined)?.value;
  return { count: total.value, ...(of !== undefined ? { of } : {}), kinds };
}

/**
 * A percentile q is shown only when at least this many observations lie
 * above it: n ≥ 5 / (1 − q), so p50 needs 10, p90 50, p99 500, p99.9 5,000.
 * Below that the figure is the largest one or two samples, not a percentile.
 */
export const MIN_BEYOND = 5;
const QUANTILES = { p50: 0.5, p90: 0.9, p99: 0.99, p999: 0.999 } as const;

/** The observations a percentile needs (`MIN_BEYOND` above it). */
export function observationsFor(key: keyof typeof QUANTILES): number {
  return Math.ceil(MIN_BEYOND / (1 - QUANTILES[key]) - 1e-9);
}

// 'Latency p99.9' (ping, fping), 'TCP_RR_Latency_p99' (netperf), 'HTTP_Latency_p99_99' (http).
const PERCENTILE_RE = /^(.*?)[_ ]?Latency[_ ]p(\d+(?:[._]\d+)?)$/;
const WANTED = { '50': 'p50', '90': 'p90', '99': 'p99', '99.9': 'p999' } as const;
const MEAN_LATENCY_RE = /^(?:Average Latency|.+_Latency_mean)$/;
const LOSS_RE = /^Packet Loss$|_Loss$/;
// A declared latency metric that is a mean (irtt's `rtt_mean`): the headline of a latency tool.
const DECLARED_MEAN_RE = /(^|_)mean$/i;

/**
 * The one-line summary of a trial's metrics (as `results show` prints it).
 * The headline: the tool's primary throughput, else a request/transaction
 * rate (HTTP's requests/s before its transfer rate), else any throughput,
 * else the mean latency. `declared`: what the trial's tool declared
 * (`RunRecord.toolMetrics`): roles, the mean, the percentiles and the loss
 * come from it alone, so a third-party tool reads like a built-in one.
 * Without it (imported files, runs of older versions) the built-in tools'
 * metric names are matched instead (`legacy`: the run's merged declarations,
 * which win over the names there).
 */
export function trialSummary(metrics: readonly SummarisedMetric[], declared?: RunRecord['metrics'], legacy?: RunRecord['metrics']): TrialSummary {
  if (declared && Object.keys(declared).length > 0) return declaredSummary(metrics, declared);
  const role = (m: SummarisedMetric) => headlineMetric(m.metric, legacy);
  const headline = headlineOf(metrics, role) ?? metrics.find((m) => MEAN_LATENCY_RE.test(m.metric) || (legacy?.[m.metric]?.role === 'latency' && DECLARED_MEAN_RE.test(m.metric)));
  const loss = metrics.find((m) => legacy?.[m.metric]?.role === 'loss') ?? metrics.find((m) => LOSS_RE.test(m.metric));
  const latency = supported(toolPercentiles(metrics) ?? histogramPercentiles(metrics), metrics);
  return line(headline, latency, loss);
}

/** The summary from a tool's own declarations: no metric name is matched. */
function declaredSummary(metrics: readonly SummarisedMetric[], declared: NonNullable<RunRecord['metrics']>): TrialSummary {
  const info = (m: SummarisedMetric) => declared[m.metric];
  const latencies = metrics.filter((m) => info(m)?.role === 'latency');
  const headline = headlineOf(metrics, info) ?? latencies.find((m) => info(m)?.statistic === 'mean') ?? latencies.find((m) => info(m)?.primary);
  const loss = metrics.find((m) => info(m)?.role === 'loss');
  const latency = supported(declaredPercentiles(metrics, declared) ?? histogramPercentiles(latencies), metrics);
  return line(headline, latency, loss);
}

function headlineOf(
  metrics: readonly SummarisedMetric[],
  role: (m: SummarisedMetric) => { readonly role: string; readonly primary?: boolean } | undefined,
): SummarisedMetric | undefined {
  return (
    metrics.find((m) => role(m)?.role === 'throughput' && role(m)?.primary) ??
    metrics.find((m) => role(m)?.role === 'rate' && role(m)?.primary) ??
    metrics.find((m) => role(m)?.role === 'rate') ??
    metrics.find((m) => role(m)?.role === 'throughput')
  );
}

function line(headline: SummarisedMetric | undefined, latency: TrialSummary['latency'], loss: SummarisedMetric | undefined): TrialSummary {
  return {
    ...(headline ? { headline: quantity(headline) } : {}),
    ...(latency ? { latency } : {}),
    ...(loss ? { loss: quantity(loss) } : {}),
  };
}

const PERCENTILE_KEYS = { p50: 'p50', p90: 'p90', p99: 'p99', 'p99.9': 'p999' } as const;

/** The percentiles a declared latency names (`MetricDeclaration.percentiles`): the first, primary first, whose metrics the trial has. */
function declaredPercentiles(metrics: readonly SummarisedMetric[], declared: NonNullable<RunRecord['metrics']>): TrialSummary['latency'] {
  const byName = new Map(metrics.map((m) => [m.metric, m]));
  const withPercentiles = Object.entries(declared)
    .filter(([, d]) => d.role === 'latency' && d.percentiles !== undefined)
    .sort(([, a], [, b]) => Number(b.primary ?? false) - Number(a.primary ?? false));
  for (const [name, d] of withPercentiles) {
    const found: { p50?: number; p90?: number; p99?: number; p999?: number } = {};
    let unit: string | undefined;
    for (const [key, metric] of Object.entries(d.percentiles!) as [keyof typeof PERCENTILE_KEYS, string][]) {
      const m = byName.get(metric);
      if (!m) continue;
      unit ??= m.unit;
      const factor = m.unit === unit ? 1 : timeFactor(m.unit, unit);
      if (factor !== undefined) found[PERCENTILE_KEYS[key]] = m.value * factor;
    }
    if (unit !== undefined) return { unit, ...found, source: 'tool', metric: name };
  }
  return undefined;
}

const quantity = (m: SummarisedMetric): Quantity => ({ metric: m.metric, value: m.value, unit: m.unit });

/** With the count behind them (ping's packets received, a histogram's observations), percentiles it cannot support go. */
function supported(latency: TrialSummary['latency'], metrics: readonly SummarisedMetric[]): TrialSummary['latency'] {
  if (!latency) return undefined;
  const n = latency.n ?? metrics.find((m) => m.metric === 'Packets Received')?.value;
  if (n === undefined) return latency;
  const kept: Record<string, unknown> = { ...latency, n };
  const hidden = (Object.keys(QUANTILES) as (keyof typeof QUANTILES)[]).filter((k) => latency[k] !== undefined && n < observationsFor(k));
  for (const k of hidden) delete kept[k];
  return { ...(kept as NonNullable<TrialSummary['latency']>), ...(hidden.length > 0 ? { hidden } : {}) };
}

/** Percentiles the tool printed as their own metrics, all converted to the first one's unit. */
function toolPercentiles(metrics: readonly SummarisedMetric[]): TrialSummary['latency'] {
  const found: { p50?: number; p90?: number; p99?: number; p999?: number } = {};
  let unit: string | undefined;
  let family: string | undefined;
  for (const m of metrics) {
    const match = PERCENTILE_RE.exec(m.metric);
    if (!match) continue;
    const key = WANTED[match[2]!.replace('_', '.') as keyof typeof WANTED];
    if (!key || (family !== undefined && match[1] !== family)) continue;
    family ??= match[1]!;
    unit ??= m.unit;
    const factor = m.unit === unit ? 1 : timeFactor(m.unit, unit);
    if (factor === undefined) continue;
    found[key] = m.value * factor;
  }
  if (unit === undefined) return undefined;
  return { unit, ...found, source: 'tool', metric: family ? `${family} latency` : 'latency' };
}

function histogramPercentiles(metrics: readonly SummarisedMetric[]): TrialSummary['latency'] {
  const m = metrics.find((x) => x.p50 !== undefined);
  if (!m) return undefined;
  return {
    unit: m.percentileUnit ?? m.unit,
    ...(m.p50 !== undefined ? { p50: m.p50 } : {}),
    ...(m.p90 !== undefined ? { p90: m.p90 } : {}),
    ...(m.p99 !== undefined ? { p99: m.p99 } : {}),
    ...(m.p999 !== undefined ? { p999: m.p999 } : {}),
    source: 'histogram',
    metric: m.metric,
    ...(m.observations !== undefined ? { n: m.observations } : {}),
  };
}
