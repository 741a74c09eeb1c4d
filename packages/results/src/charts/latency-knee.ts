import type { SweepPoint } from './types.js';

/** Achieved below this share of the offered rate is falling behind (noise on a loopback is a few percent). */
export const KNEE_SHARE = 0.9;

/**
 * The knee of a latency-vs-offered-load curve: the highest offered rate the
 * server still kept up with (achieved ≥ `KNEE_SHARE`, 90 %, of offered),
 * provided a higher offered rate falls clearly behind (achieved < 90 % of
 * offered). Judged on the achieved rate, not on latency: a latency that
 * doubles from 150 µs to 300 µs on a loopback at 2,000/s while every request
 * is served is noise, not a knee. Undefined with fewer than 3 points or
 * when every offered rate was kept up with (no knee in the measured range).
 * `achieved` maps an offered rate to the achieved rate measured at it.
 */
export function latencyKnee(points: readonly SweepPoint[], achieved: ReadonlyMap<number, number>): SweepPoint | undefined {
  const sorted = [...points].sort((a, b) => a.x - b.x);
  if (sorted.length < 3) return undefined;
  const behind = (p: SweepPoint) => {
    const rate = achieved.get(p.x);
    return rate !== undefined && p.x > 0 && rate < KNEE_SHARE * p.x;
  };
  const past = sorted.findIndex(behind);
  return past > 0 ? sorted[past - 1] : undefined;
}
