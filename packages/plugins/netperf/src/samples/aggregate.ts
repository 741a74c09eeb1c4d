import { type Labels, LatencyHistogram, type SampleInput } from '@netbench/plugin-api';
import type { NetperfResult } from '../result.js';
import { isRequestResponse } from '../tests.js';
import { histogramFromBuckets } from './histogram.js';
import { mixtureQuantile, type StreamDistribution } from './mixture-quantile.js';
import { packetRateTotal } from './packet-rate.js';
import { pkbThroughputStats } from './pkb-stats.js';
import { streamSamples } from './stream-samples.js';
import { MBPS, MICROSECONDS, TRANSACTIONS_PER_SECOND } from './units.js';

/**
 * Samples of a trial's netperf processes (one per stream).
 *
 * One stream: PKB's single-stream samples. Several: every stream's own
 * samples labelled `stream: <index>`, then, unlabelled, PKB's multi-stream
 * samples `<TEST>_Throughput_{total,average,min,max,p50,p90,p99,stddev}` over
 * the per-stream throughputs (transactions_per_second for RR tests, as PKB),
 * and for RR tests the latency of all transactions together (see
 * `aggregateLatency`).
 */
export function trialSamples(results: readonly NetperfResult[], labels: Labels = {}): SampleInput[] {
  const [first] = results;
  if (!first) return [];
  if (results.length === 1) return streamSamples(first, labels);
  const { test } = first;
  const samples = results.flatMap((result, stream) => streamSamples(result, { ...labels, stream }));
  const unit = isRequestResponse(test) ? TRANSACTIONS_PER_SECOND : MBPS;
  const stats = pkbThroughputStats(results.map((result) => result.throughput));
  for (const stat of ['total', 'average', 'min', 'max', 'p50', 'p90', 'p99', 'stddev'] as const) {
    samples.push({ metric: `${test}_Throughput_${stat}`, value: stats[stat], unit, labels });
  }
  if (isRequestResponse(test)) samples.push(...aggregateLatency(results, labels));
  samples.push(...packetRateTotal(results, labels));
  samples.push(...aggregateExtras(results, labels));
  return samples;
}

/** Transactions a stream completed: what its latency statistics are weighted by. */
function transactions(result: NetperfResult): number {
  return result.throughput * (result.elapsedSeconds ?? 1);
}

/**
 * Latency over all streams' transactions:
 * - min / max: the smallest / largest per-stream value (exact);
 * - mean: the mean of per-stream means weighted by transactions (exact);
 * - stddev: pooled from per-stream means and stddevs (exact);
 * - p50/p90/p99: from the merged histogram when netperf printed one per
 *   stream (as PKB does), else the weighted mixture of per-stream
 *   distributions interpolated between their reported percentiles
 *   (`mixtureQuantile`), never the mean of per-stream percentiles.
 * Each sample says which in its `aggregation` label.
 */
export function aggregateLatency(results: readonly NetperfResult[], labels: Labels): SampleInput[] {
  const test = results[0]?.test;
  if (!test) return [];
  const samples: SampleInput[] = [];
  const push = (stat: string, value: number | undefined, aggregation: string, histogram?: SampleInput['histogram']) => {
    if (value === undefined || !Number.isFinite(value)) return;
    samples.push({ metric: `${test}_Latency_${stat}`, value, unit: MICROSECONDS, labels: { ...labels, aggregation }, ...(histogram ? { histogram } : {}) });
  };

  const histograms = results.map((result) => result.histogram);
  if (histograms.every((buckets) => buckets && buckets.length > 0)) {
    const merged = LatencyHistogram.create('us');
    for (const buckets of histograms) merged.add(histogramFromBuckets(buckets ?? []));
    push('Histogram', 0, 'merged_histogram', merged.encode());
    for (const p of [50, 90, 99] as const) push(`p${p}`, merged.percentile(p), 'merged_histogram');
  } else {
    const streams: StreamDistribution[] = results.map((result) => ({ knots: knotsOf(result), weight: transactions(result) }));
    for (const p of [50, 90, 99] as const) push(`p${p}`, mixtureQuantile(streams, p / 100), 'interpolated_cdf');
  }

  const all = <K extends keyof NetperfResult['latency']>(key: K) => {
    const values = results.map((result) => result.latency[key]);
    return values.every((value) => value !== undefined) ? (values as number[]) : undefined;
  };
  const mins = all('min');
  const maxes = all('max');
  push('min', mins && Math.min(...mins), 'min_of_streams');
  push('max', maxes && Math.max(...maxes), 'max_of_streams');
  const means = all('mean');
  const stddevs = all('stddev');
  const weights = results.map(transactions);
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  if (means && total > 0) {
    const mean = means.reduce((sum, value, i) => sum + value * (weights[i] as number), 0) / total;
    push('mean', mean, 'transaction_weighted_mean');
    if (stddevs) {
      const secondMoment = means.reduce((sum, value, i) => sum + (weights[i] as number) * ((stddevs[i] as number) ** 2 + value ** 2), 0) / total;
      push('stddev', Math.sqrt(Math.max(0, secondMoment - mean ** 2)), 'pooled');
    }
  }
  return samples;
}

function knotsOf(result: NetperfResult): [number, number][] {
  const { min, p50, p90, p99, max } = result.latency;
  const knots: [number | undefined, number][] = [
    [min, 0],
    [p50, 0.5],
    [p90, 0.9],
    [p99, 0.99],
    [max, 1],
  ];
  return knots.filter((knot): knot is [number, number] => knot[0] !== undefined);
}

/** Retransmissions summed over streams; CPU utilisation (system-wide, measured by every stream) averaged. */
function aggregateExtras(results: readonly NetperfResult[], labels: Labels): SampleInput[] {
  const test = results[0]?.test;
  const samples: SampleInput[] = [];
  const sum = (values: (number | undefined)[]) => (values.every((v) => v !== undefined) ? (values as number[]).reduce((a, b) => a + b, 0) : undefined);
  const mean = (values: (number | undefined)[]) => {
    const total = sum(values);
    return total === undefined ? undefined : total / values.length;
  };
  const add = (metric: string, value: number | undefined, unit: string) => {
    if (value !== undefined) samples.push({ metric: `${test}_${metric}`, value, unit, labels });
  };
  add('Local_Transport_Retransmissions', sum(results.map((r) => r.localRetransmissions)), 'count');
  add('Remote_Transport_Retransmissions', sum(results.map((r) => r.remoteRetransmissions)), 'count');
  add('Local_CPU_Util', mean(results.map((r) => r.localCpuPercent)), 'percent');
  add('Remote_CPU_Util', mean(results.map((r) => r.remoteCpuPercent)), 'percent');
  return samples;
}
