import { seededRandom } from '@netbench/core';
import type { EncodedHistogram } from '@netbench/plugin-api';
import { type BootstrapInterval, type BootstrapOptions, DEFAULT_RESAMPLES, interval } from './bootstrap.js';
import { hdrHistogram } from './hdr.js';
import { poisson } from './poisson.js';
import { timeFactor } from './units.js';

/** The recorded values of one or more latency histograms: distinct values (ascending) and their counts. */
export interface Distribution {
  readonly unit: EncodedHistogram['unit'];
  readonly values: Float64Array;
  readonly counts: Float64Array;
  readonly total: number;
}

/**
 * Merge encoded histograms into one distribution (in the first one's unit).
 * Each HdrHistogram bucket contributes its highest equivalent value, as
 * HdrHistogram's own percentiles do.
 */
export function histogramDistribution(parts: readonly EncodedHistogram[]): Distribution {
  const unit = parts[0]?.unit ?? 'us';
  const byValue = new Map<number, number>();
  const hdr = hdrHistogram();
  for (const part of parts) {
    const factor = timeFactor(part.unit, unit) ?? 1;
    const histogram = hdr.decodeFromCompressedBase64(part.data, 'packed');
    if (!(histogram instanceof hdr.JsHistogram)) throw new Error('unexpected histogram implementation');
    const it = histogram.recordedValuesIterator;
    it.reset();
    while (it.hasNext()) {
      const step = it.next();
      const value = step.valueIteratedTo * factor;
      byValue.set(value, (byValue.get(value) ?? 0) + step.countAtValueIteratedTo);
    }
  }
  const values = Float64Array.from(byValue.keys()).sort();
  const counts = Float64Array.from(values, (v) => byValue.get(v)!);
  return { unit, values, counts, total: counts.reduce((s, c) => s + c, 0) };
}

/** Several distributions as one (in the first one's unit), without decoding the histograms again. */
export function mergeDistributions(parts: readonly Distribution[]): Distribution {
  if (parts.length === 1) return parts[0]!;
  const unit = parts[0]?.unit ?? 'us';
  const byValue = new Map<number, number>();
  for (const part of parts) {
    const factor = timeFactor(part.unit, unit) ?? 1;
    part.values.forEach((v, i) => {
      const value = v * factor;
      byValue.set(value, (byValue.get(value) ?? 0) + part.counts[i]!);
    });
  }
  const values = Float64Array.from(byValue.keys()).sort();
  const counts = Float64Array.from(values, (v) => byValue.get(v)!);
  return { unit, values, counts, total: counts.reduce((s, c) => s + c, 0) };
}

/**
 * Value at percentile `p` (0..100): the first value whose cumulative count
 * reaches ⌈p/100 · total⌉, less one ulp of rounding (HdrHistogram's rule, so
 * both give the same answer).
 */
export function distributionPercentile(values: ArrayLike<number>, counts: ArrayLike<number>, total: number, p: number): number {
  if (total <= 0) return Number.NaN;
  const exact = (Math.min(p, 100) / 100) * total;
  const target = Math.max(1, Math.ceil(exact - ulp(exact)));
  let cumulative = 0;
  for (let i = 0; i < values.length; i += 1) {
    cumulative += counts[i]!;
    if (cumulative >= target) return values[i]!;
  }
  return values[values.length - 1]!;
}

/**
 * Bootstrap intervals of percentile(b) − percentile(a) for each of
 * `percentiles`, from the observations the histograms hold. A Poisson
 * bootstrap: every observation is weighted by an independent Poisson(1)
 * draw, so a bucket of count c gets Poisson(c) — equivalent to the
 * multinomial bootstrap for large samples, and linear in buckets rather
 * than observations. `b` is converted to `a`'s unit.
 */
export function bootstrapPercentileDiffs(a: Distribution, b: Distribution, percentiles: readonly number[], options: BootstrapOptions): BootstrapInterval[] {
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const random = seededRandom(options.seed);
  const factor = timeFactor(b.unit, a.unit) ?? 1;
  const bValues = factor === 1 ? b.values : b.values.map((v) => v * factor);
  const diffs = percentiles.map(() => new Float64Array(resamples));
  const countsA = new Float64Array(a.counts.length);
  const countsB = new Float64Array(b.counts.length);
  const resample = (from: Float64Array, into: Float64Array) => {
    let total = 0;
    for (let i = 0; i < from.length; i += 1) total += into[i] = poisson(from[i]!, random);
    return total;
  };
  for (let r = 0; r < resamples; r += 1) {
    const totalA = resample(a.counts, countsA);
    const totalB = resample(b.counts, countsB);
    percentiles.forEach((p, i) => {
      diffs[i]![r] = distributionPercentile(bValues, countsB, totalB, p) - distributionPercentile(a.values, countsA, totalA, p);
    });
  }
  return diffs.map((d) =>
    interval(
      d.filter((x) => !Number.isNaN(x)),
      options,
      resamples,
    ),
  );
}

/** Unit in the last place of a double. */
function ulp(x: number): number {
  return x === 0 ? Number.MIN_VALUE : 2 ** (Math.floor(Math.log2(Math.abs(x))) - 52);
}
