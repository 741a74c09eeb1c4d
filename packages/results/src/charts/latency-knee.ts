import type { SweepPoint } from './types.js';

/** Latency this many times the lowest-load latency means the server is past its knee. */
export const KNEE_FACTOR = 2;

/**
 * The knee of a latency-vs-offered-load curve: the highest offered load
 * whose latency is still within `KNEE_FACTOR` (2×) of the latency at the
 * lowest offered load, provided a higher load goes past it. Points are
 * taken in increasing load; undefined when there are fewer than 3 points,
 * the baseline is not positive, or no point goes past 2× (no knee in the
 * measured range). The rule is simple on purpose: it needs no curve
 * fitting, reads the same on any latency percentile, and says "past here
 * queueing dominates" the way a reader of the chart would.
 */
export function latencyKnee(points: readonly SweepPoint[]): SweepPoint | undefined {
  const sorted = [...points].sort((a, b) => a.x - b.x);
  const base = sorted[0]?.mean;
  if (sorted.length < 3 || base === undefined || !(base > 0)) return undefined;
  const past = sorted.findIndex((p) => p.mean > KNEE_FACTOR * base);
  return past > 0 ? sorted[past - 1] : undefined;
}
