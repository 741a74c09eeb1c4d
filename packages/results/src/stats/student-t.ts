/**
 * Student's t distribution for real (non-integer) degrees of freedom, as
 * Welch's test needs, and for the charts' confidence intervals of a mean:
 * the tail through the regularized incomplete beta function (continued
 * fraction), quantiles by bisection on it. The one copy in netbench.
 */

/** ln Γ(x) for x > 0: Lanczos (g = 7, 9 terms), relative error below 1e-14. */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let sum = LANCZOS[0]!;
  for (let i = 1; i < LANCZOS.length; i += 1) sum += LANCZOS[i]! / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
  1.5056327351493116e-7,
];

/** Regularized incomplete beta I_x(a, b), by its continued fraction (modified Lentz), on the side where it converges fast. */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x));
  // The fraction converges for x < (a + 1) / (a + b + 2); the other side by symmetry.
  if (x < (a + 1) / (a + b + 2)) return (front * betaFraction(x, a, b)) / a;
  return 1 - (front * betaFraction(1 - x, b, a)) / b;
}

const TINY = 1e-300;

function betaFraction(x: number, a: number, b: number): number {
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 500; m += 1) {
    const m2 = 2 * m;
    // Even step, then odd step, of the continued fraction.
    let num = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + num * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + num / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    h *= d * c;
    num = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + num * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + num / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const step = d * c;
    h *= step;
    if (Math.abs(step - 1) < 1e-15) break;
  }
  return h;
}

/** Two-sided p of a t statistic with `df` degrees of freedom: P(|T| ≥ |t|). */
export function twoSidedTP(t: number, df: number): number {
  if (!(df > 0)) throw new RangeError(`degrees of freedom must be positive, got ${df}`);
  if (!Number.isFinite(t)) return Number.isNaN(t) ? Number.NaN : 0;
  return Math.min(1, incompleteBeta(df / (df + t * t), df / 2, 0.5));
}

/** The t with P(|T| ≥ t) = `p` (two-sided critical value): for a (1 − p) confidence interval. */
export function tCritical(p: number, df: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`p must be in (0, 1), got ${p}`);
  let low = 0;
  let high = 1;
  while (twoSidedTP(high, df) > p) high *= 2;
  // The tail falls monotonically in t: bisect to the last bit.
  for (let i = 0; i < 200 && high - low > 1e-12 * high; i += 1) {
    const mid = (low + high) / 2;
    if (twoSidedTP(mid, df) > p) low = mid;
    else high = mid;
  }
  return (low + high) / 2;
}

/** P(T ≤ t) for Student's t with `df` degrees of freedom. */
export function studentTCdf(t: number, df: number): number {
  const tail = 0.5 * twoSidedTP(t, df);
  return t >= 0 ? 1 - tail : tail;
}

/** The t with P(T ≤ t) = p, for 0 < p < 1. */
export function studentTQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1) || !(df > 0)) throw new RangeError(`studentTQuantile(${p}, ${df})`);
  if (p === 0.5) return 0;
  if (p < 0.5) return -studentTQuantile(1 - p, df);
  return tCritical(2 * (1 - p), df);
}
