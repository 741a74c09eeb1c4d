/** An axis is fitted to its body when its largest value is more than this many times its p99. */
export const OUTLIER_RATIO = 2;
/** Fewer values than this: every one sets the axis (a percentile of a handful says nothing). */
const MIN_VALUES = 20;

/** 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 × 10ⁿ: the smallest at or above `value` (close above it, so the body fills the axis). */
export function niceCeil(value: number): number {
  if (!(value > 0)) return value;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10]) {
    if (step * magnitude >= value * (1 - 1e-12)) return step * magnitude;
  }
  return 10 * magnitude;
}

/**
 * The top of an outlier-robust value axis: undefined (let the largest value
 * set it) unless the largest is more than OUTLIER_RATIO × the 99th
 * percentile, then a round number above the p99 with some headroom — so one
 * stalled probe's 2.4 s does not flatten 9 ms round trips to a line at
 * zero. What is above it is clipped, and the caller marks and names it.
 */
export function robustAxisMax(values: readonly number[]): number | undefined {
  if (values.length < MIN_VALUES) return undefined;
  const sorted = Float64Array.from(values).sort();
  const p99 = sorted[Math.min(sorted.length - 1, Math.ceil(0.99 * sorted.length) - 1)]!;
  const max = sorted[sorted.length - 1]!;
  if (!(p99 > 0) || max <= OUTLIER_RATIO * p99) return undefined;
  return niceCeil(p99 * 1.1);
}
