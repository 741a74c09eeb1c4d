import { seededRandom } from '@netbench/core';
import { quantileSelect, sortedCopy } from './quantile.js';

export interface BootstrapOptions {
  /** Resamples (default 2000). */
  readonly resamples?: number;
  /** Seed of the resampling, so the same data give the same interval. */
  readonly seed: number;
  /** Confidence of the interval, e.g. 0.95. */
  readonly confidence: number;
}

/** A percentile-bootstrap confidence interval of a difference (candidate − baseline). */
export interface BootstrapInterval {
  readonly low: number;
  readonly high: number;
  readonly confidence: number;
  readonly resamples: number;
  readonly seed: number;
}

export const DEFAULT_RESAMPLES = 2000;

/**
 * Percentile-bootstrap interval of median(b) − median(a): each resample
 * draws both groups with replacement, independently. Seeded, so it is
 * reproducible.
 */
export function bootstrapMedianDiff(a: readonly number[], b: readonly number[], options: BootstrapOptions): BootstrapInterval {
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const random = seededRandom(options.seed);
  const sortedA = sortedCopy(a);
  const sortedB = sortedCopy(b);
  const countsA = new Int32Array(a.length);
  const countsB = new Int32Array(b.length);
  const diffs = new Float64Array(resamples);
  for (let r = 0; r < resamples; r += 1) diffs[r] = resampledMedian(sortedB, countsB, random) - resampledMedian(sortedA, countsA, random);
  return interval(diffs, options, resamples);
}

/**
 * Median of a resample (n draws with replacement) of ascending `sorted`:
 * count how often each value is drawn and walk the counts to the middle
 * rank — O(n), no sort. Same definition as `median` (mean of the two middle
 * values for even n).
 */
function resampledMedian(sorted: Float64Array, counts: Int32Array, random: () => number): number {
  const n = sorted.length;
  counts.fill(0);
  for (let i = 0; i < n; i += 1) counts[(random() * n) | 0]! += 1;
  const lo = (n - 1) >> 1;
  const hi = n >> 1;
  let cumulative = 0;
  let low = Number.NaN;
  for (let k = 0; k < n; k += 1) {
    cumulative += counts[k]!;
    if (Number.isNaN(low) && cumulative > lo) low = sorted[k]!;
    if (cumulative > hi) return (low + sorted[k]!) / 2;
  }
  return low;
}

/** The (1 − confidence)/2 and (1 + confidence)/2 quantiles of the replicate differences. */
export function interval(diffs: Float64Array, options: BootstrapOptions, resamples: number): BootstrapInterval {
  const tail = (1 - options.confidence) / 2;
  return { low: quantileSelect(diffs, tail), high: quantileSelect(diffs, 1 - tail), confidence: options.confidence, resamples, seed: options.seed };
}

/** Does the interval exclude zero? */
export function excludesZero(ci: BootstrapInterval): boolean {
  return ci.low > 0 || ci.high < 0;
}
