import { tCritical, twoSidedTP } from './student-t.js';

export interface WelchLogResult {
  /** t of mean(ln candidate) − mean(ln baseline), over Welch's standard error. */
  readonly t: number;
  /** Welch–Satterthwaite degrees of freedom (not an integer in general). */
  readonly df: number;
  /** Two-sided p-value. */
  readonly p: number;
  /**
   * Candidate over baseline geometric mean, exp(mean ln b − mean ln a): under
   * the log-normal assumption the ratio of the medians.
   */
  readonly ratio: number;
  /** The (1 − alpha) Welch interval of that ratio: a ratio, so always positive. */
  readonly low: number;
  readonly high: number;
  readonly confidence: number;
  readonly n1: number;
  readonly n2: number;
}

/** Why Welch's test on logarithms does not apply to a pair of samples. */
export type WelchLogRefusal = 'non-positive' | 'no spread' | 'too few';

/**
 * Welch's unequal-variance t-test on the natural logarithms of `a`
 * (baseline) and `b` (candidate), two-sided. It assumes each side is
 * log-normal — positive values with multiplicative noise, as latency,
 * throughput and rates roughly are — and, unlike a rank test, can reach
 * small p with 2 or 3 values a side. On the log scale a mean difference is
 * a ratio, so its interval never leaves the positive domain. Returns why
 * not when it cannot apply: a value ≤ 0 has no logarithm; with no spread
 * within either side the noise cannot be estimated.
 */
export function welchLogT(a: readonly number[], b: readonly number[], options: { readonly alpha?: number } = {}): WelchLogResult | { readonly refused: WelchLogRefusal } {
  const alpha = options.alpha ?? 0.05;
  if (a.length < 2 || b.length < 2) return { refused: 'too few' };
  if (![...a, ...b].every((x) => x > 0 && Number.isFinite(x))) return { refused: 'non-positive' };
  const la = a.map(Math.log);
  const lb = b.map(Math.log);
  const [ma, va] = meanVariance(la);
  const [mb, vb] = meanVariance(lb);
  const sa = va / la.length;
  const sb = vb / lb.length;
  const se2 = sa + sb;
  // Relative to the values' own magnitude, so float noise in equal logs does not count as spread.
  const scale = Math.max(1, Math.abs(ma), Math.abs(mb));
  if (!(se2 > (1e-12 * scale) ** 2)) return { refused: 'no spread' };
  const se = Math.sqrt(se2);
  const diff = mb - ma;
  const t = diff / se;
  const df = (se2 * se2) / ((sa * sa) / (la.length - 1) + (sb * sb) / (lb.length - 1));
  const half = tCritical(alpha, df) * se;
  return { t, df, p: twoSidedTP(t, df), ratio: Math.exp(diff), low: Math.exp(diff - half), high: Math.exp(diff + half), confidence: 1 - alpha, n1: a.length, n2: b.length };
}

/** Mean and sample variance (n − 1), in two passes for accuracy. */
function meanVariance(xs: readonly number[]): [number, number] {
  const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
  const ss = xs.reduce((s, x) => s + (x - mean) ** 2, 0);
  return [mean, ss / (xs.length - 1)];
}

/**
 * The smallest two-sided p Mann–Whitney can give `n1` against `n2` values
 * without ties: both extreme arrangements out of C(n1 + n2, n1). Above
 * alpha, the counts alone keep the rank test from deciding (3 and 3: 0.1).
 */
export function rankTestFloor(n1: number, n2: number): number {
  let ways = 1;
  for (let i = 1; i <= n1; i += 1) ways = (ways * (n2 + i)) / i;
  return Math.min(1, 2 / ways);
}
