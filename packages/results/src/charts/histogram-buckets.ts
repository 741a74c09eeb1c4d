import type { EncodedHistogram } from '@netbench/plugin-api';
import { type Hdr, hdrHistogram } from '../stats/hdr.js';

export interface Bucket {
  /** Highest value equivalent to the bucket (what HdrHistogram reports for percentiles). */
  readonly value: number;
  readonly count: number;
}

export interface MergedHistogram {
  readonly unit: EncodedHistogram['unit'];
  readonly count: number;
  /** Non-empty buckets, ascending. */
  readonly buckets: readonly Bucket[];
  percentile(p: number): number;
  readonly min: number;
  readonly max: number;
}

/**
 * Merge encoded histograms of one unit and list their recorded buckets.
 * Decodes with hdr-histogram-js directly (as `LatencyHistogram` does) because
 * charts need the buckets themselves, not only percentiles.
 */
export function mergeHistograms(parts: readonly EncodedHistogram[]): MergedHistogram {
  const unit = parts[0]?.unit ?? 'us';
  const hdr = hdrHistogram();
  const merged = hdr.build({ bitBucketSize: 'packed', numberOfSignificantValueDigits: 3 });
  for (const part of parts) {
    if (part.unit !== unit) throw new Error(`cannot merge histograms in ${part.unit} into ${unit}`);
    merged.add(hdr.decodeFromCompressedBase64(part.data, 'packed'));
  }
  return {
    unit,
    count: merged.totalCount,
    buckets: bucketsOf(merged),
    percentile: (p) => merged.getValueAtPercentile(p),
    min: merged.totalCount === 0 ? 0 : merged.minNonZeroValue,
    max: merged.maxValue,
  };
}

function bucketsOf(histogram: Hdr.Histogram): Bucket[] {
  const buckets: Bucket[] = [];
  if (histogram instanceof hdrHistogram().JsHistogram) {
    const it = histogram.recordedValuesIterator;
    it.reset();
    while (it.hasNext()) {
      const step = it.next();
      buckets.push({ value: step.valueIteratedTo, count: step.countAtValueIteratedTo });
    }
    return buckets;
  }
  // A WebAssembly histogram has no iterator: approximate from a fine percentile grid.
  const total = histogram.totalCount;
  let previous = 0;
  for (let i = 1; i <= 1000; i++) {
    const value = histogram.getValueAtPercentile(i / 10);
    const upTo = Math.round((total * i) / 1000);
    const last = buckets.at(-1);
    if (last && last.value === value) buckets[buckets.length - 1] = { value, count: last.count + upTo - previous };
    else if (upTo > previous) buckets.push({ value, count: upTo - previous });
    previous = upTo;
  }
  return buckets;
}

const LADDER = ['ns', 'us', 'ms', 's'] as const;

/** A unit that shows typical values between 1 and 1000 (78 us stays us, 5363 us becomes 5.363 ms). */
export function readableTimeUnit(unit: string, typical: number): { unit: string; factor: number } {
  let index = LADDER.indexOf(unit as (typeof LADDER)[number]);
  if (index < 0) return { unit, factor: 1 };
  let factor = 1;
  while (index < LADDER.length - 1 && typical * factor >= 1000) {
    factor /= 1000;
    index += 1;
  }
  return { unit: LADDER[index]!, factor };
}
