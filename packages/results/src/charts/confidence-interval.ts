import { seededRandom } from '@netbench/core';
import { studentTQuantile } from '../stats/student-t.js';
import type { IntervalMethod } from './types.js';

/** How chart intervals are computed (named in every chart's `confidence.method`). */
export const INTERVAL_METHOD: IntervalMethod = 'bootstrap-percentile';
/** Seed of every chart interval's resampling: the same values always give the same interval. */
export const INTERVAL_SEED = 1;
const RESAMPLES = 2000;
// Resamples × values bounds the work of one interval (a 100,000-interval series still gets 200 resamples).
const WORK = 2_000_000;

export interface MeanInterval {
  readonly mean: number;
  readonly n: number;
  /** Sample standard deviation (n - 1); absent when n < 2. */
  readonly stddev?: number;
  readonly low?: number;
  readonly high?: number;
  /** How `low`/`high` were computed; absent without an interval. */
  readonly method?: IntervalMethod;
  /** Why there is no interval (one value). */
  readonly noInterval?: string;
}

export interface IntervalOptions {
  readonly seed?: number;
  readonly resamples?: number;
}

/**
 * Mean and percentile-bootstrap confidence interval of the mean: the
 * (1−level)/2 and (1+level)/2 quantiles of the means of resamples drawn with
 * replacement, from a fixed-seed generator (same values, same interval).
 * Every resampled mean lies between the smallest and largest value, so the
 * interval never leaves the metric's domain: a latency or a throughput
 * interval never goes below 0, where Student's t (mean ± t·s/√n) went to
 * −30 µs on three skewed values. With one value there is no interval.
 * With 2–4 values the interval spans about their range and understates the
 * uncertainty (`fewNote` says so on the chart). Values of a signed metric
 * (some below 0, e.g. a clock offset) have no lower bound to respect and
 * get Student's t (mean ± t·s/√n).
 */
export function meanInterval(values: readonly number[], level = 0.95, options: IntervalOptions = {}): MeanInterval {
  const n = values.length;
  if (n === 0) throw new RangeError('meanInterval of no values');
  let sum = 0;
  let smallest = Infinity;
  for (const v of values) {
    sum += v;
    if (v < smallest) smallest = v;
  }
  const mean = sum / n;
  if (n < 2) return { mean, n, noInterval: 'one value: no interval (repeat the trial for one)' };
  let squares = 0;
  for (const v of values) squares += (v - mean) ** 2;
  const stddev = Math.sqrt(squares / (n - 1));
  if (smallest < 0) {
    const half = studentTQuantile(1 - (1 - level) / 2, n - 1) * (stddev / Math.sqrt(n));
    return { mean, n, stddev, low: mean - half, high: mean + half, method: 'student-t' };
  }
  if (stddev === 0) return { mean, n, stddev, low: mean, high: mean, method: INTERVAL_METHOD };
  const resamples = Math.max(200, Math.min(options.resamples ?? RESAMPLES, Math.floor(WORK / n)));
  const random = seededRandom(options.seed ?? INTERVAL_SEED);
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let total = 0;
    for (let i = 0; i < n; i++) total += values[(random() * n) | 0]!;
    means[r] = total / n;
  }
  means.sort();
  const tail = (1 - level) / 2;
  // Clamped to the values' range: interpolation cannot leave it, rounding must not either.
  const low = Math.max(quantileOfSorted(means, tail), smallest);
  return { mean, n, stddev, low, high: quantileOfSorted(means, 1 - tail), method: INTERVAL_METHOD };
}

/** Linear interpolation between order statistics (R's type 7). */
function quantileOfSorted(sorted: Float64Array, p: number): number {
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/** The words every chart uses for its whiskers; `ns`: the bars' n (all 1: there are no whiskers to explain). */
export function intervalNote(level: number, over: string, ns?: readonly number[]): string {
  if (ns?.every((n) => n <= 1)) return 'No whiskers: one value per bar (n = 1), so no confidence interval; repeat the trials (options.repetitions) for one.';
  return `Whiskers: ${Math.round(level * 100)}% confidence interval of the mean by percentile bootstrap (${RESAMPLES} resamples, fixed seed ${INTERVAL_SEED}) over ${over}; it stays within the values' range, so never below 0 for latency or throughput (a signed metric with values below 0 gets Student's t); none where n = 1.`;
}

/** A caution when some interval rests on 2–4 values: a bootstrap of so few spans about their range. */
export function fewNote(ns: readonly number[], _level?: number): string[] {
  const smallest = Math.min(...ns.filter((n) => n >= 2));
  if (!Number.isFinite(smallest) || smallest > 4) return [];
  return [
    `Some intervals rest on ${smallest} values: a bootstrap of so few spans about their range and understates the uncertainty; 5 or more repetitions give a trustworthy interval.`,
  ];
}

/** The method a chart's intervals used: Student's t when some value is below 0 (a signed metric), else the bootstrap. */
export function intervalMethod(values: Iterable<number>): IntervalMethod {
  for (const v of values) if (v < 0) return 'student-t';
  return INTERVAL_METHOD;
}
