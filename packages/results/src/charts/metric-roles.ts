import type { RunRecord } from '@netbench/plugin-api';
import type { Better, ChartInput } from './types.js';

export type MetricRole = 'latency' | 'throughput' | 'rate' | 'loss' | 'jitter';

export interface MetricInfo {
  readonly role: MetricRole;
  readonly better: Better;
  /** The one metric per tool a heatmap shows (the whitepaper's average ping RTT, p50 for netperf RR, receiver throughput). */
  readonly primary: boolean;
}

// Headline metrics of the built-in tools (PKB's names), and the same shapes from other tools.
const HEADLINE: readonly (readonly [RegExp, MetricInfo])[] = [
  [/^Average Latency$/, { role: 'latency', better: 'lower', primary: true }],
  [/^Latency p(50|99)$/, { role: 'latency', better: 'lower', primary: false }],
  [/_Latency_p50$/, { role: 'latency', better: 'lower', primary: true }],
  [/_Latency_p99$/, { role: 'latency', better: 'lower', primary: false }],
  [/^Throughput$/, { role: 'throughput', better: 'higher', primary: true }],
  [/_Throughput(_total)?$/, { role: 'throughput', better: 'higher', primary: true }],
  [/_Transaction_Rate$/, { role: 'rate', better: 'higher', primary: false }],
  [/_Request_Rate$/, { role: 'rate', better: 'higher', primary: false }],
  [/^Packet Loss$/, { role: 'loss', better: 'lower', primary: false }],
  [/^Jitter$/, { role: 'jitter', better: 'lower', primary: false }],
];

/**
 * Role of a headline metric; undefined for the rest (counts, CPU, bytes),
 * which only the summary tables show. `declared`: what the run's tools
 * declared (`RunRecord.metrics`), which wins over the built-in names.
 */
export function headlineMetric(metric: string, declared?: RunRecord['metrics']): MetricInfo | undefined {
  const own = declared?.[metric];
  if (own) return { role: own.role, better: own.better, primary: own.primary ?? false };
  // Asked once per sample by every chart kind; runs have few distinct metric names.
  if (known.has(metric)) return known.get(metric);
  const info = NOT_HEADLINE_RE.test(metric) ? undefined : HEADLINE.find(([pattern]) => pattern.test(metric))?.[1];
  known.set(metric, info);
  return info;
}

const known = new Map<string, MetricInfo | undefined>();

/** wrk's per-thread mean, stdev and max (three samples of one name): statistics of its threads, not a result to chart. */
const NOT_HEADLINE_RE = /^wrk_Thread_/;

const LOWER_BETTER_RE = /latency|rtt|jitter|loss|retrans|error|time|duration/i;

/** Better direction of any metric (for metrics chosen by the user). */
export function betterOf(metric: string, declared?: RunRecord['metrics']): Better {
  return headlineMetric(metric, declared)?.better ?? (LOWER_BETTER_RE.test(metric) ? 'lower' : 'higher');
}

const declaredBy = new WeakMap<ChartInput, RunRecord['metrics']>();

/** The headline metrics every run of `input` declared (`RunRecord.metrics`), merged. */
export function declaredMetrics(input: ChartInput): RunRecord['metrics'] {
  let merged = declaredBy.get(input);
  if (!merged) {
    merged = Object.assign({}, ...input.map((r) => r.run.metrics ?? {})) as RunRecord['metrics'];
    declaredBy.set(input, merged);
  }
  return merged;
}
