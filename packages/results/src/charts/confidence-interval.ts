import { studentTQuantile } from './student-t.js';

export interface MeanInterval {
  readonly mean: number;
  readonly n: number;
  /** Sample standard deviation (n - 1); absent when n < 2. */
  readonly stddev?: number;
  readonly low?: number;
  readonly high?: number;
}

/**
 * Mean and two-sided confidence interval of the mean with Student's t
 * (mean ± t(1-(1-level)/2, n-1) · s/√n). The t interval assumes roughly
 * normal means, which holds for repeated benchmark measurements far better
 * than for raw per-packet latencies (those get CDFs, not intervals). With
 * one value there is no interval.
 */
export function meanInterval(values: readonly number[], level = 0.95): MeanInterval {
  const n = values.length;
  if (n === 0) throw new RangeError('meanInterval of no values');
  const mean = values.reduce((sum, v) => sum + v, 0) / n;
  if (n < 2) return { mean, n };
  const variance = values.reduce((sum, v) => sum + (v - mean) ** 2, 0) / (n - 1);
  const stddev = Math.sqrt(variance);
  const half = studentTQuantile(1 - (1 - level) / 2, n - 1) * (stddev / Math.sqrt(n));
  return { mean, n, stddev, low: mean - half, high: mean + half };
}

/** A caution when some interval rests on 2 or 3 values, where t is large (12.7 and 4.3 at 95%). */
export function fewNote(ns: readonly number[], level: number): string[] {
  const smallest = Math.min(...ns.filter((n) => n >= 2));
  if (!Number.isFinite(smallest) || smallest > 3) return [];
  const t = studentTQuantile(1 - (1 - level) / 2, smallest - 1);
  return [`Some intervals rest on ${smallest} values (t = ${t.toFixed(1)}): they are wide by nature; 5 or more repetitions narrow them.`];
}
