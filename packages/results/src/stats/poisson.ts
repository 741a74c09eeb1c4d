import type { Random } from '@netbench/core';

/**
 * A Poisson(λ) draw: Knuth's multiplication for small λ, Hörmann's PTRS
 * (transformed rejection with squeeze, as numpy uses) above. Exact in
 * distribution for every λ.
 */
export function poisson(lambda: number, random: Random): number {
  if (lambda <= 0) return 0;
  if (lambda < 10) {
    const limit = Math.exp(-lambda);
    let k = 0;
    for (let product = random(); product > limit; product *= random()) k += 1;
    return k;
  }
  const slam = Math.sqrt(lambda);
  const loglam = Math.log(lambda);
  const b = 0.931 + 2.53 * slam;
  const a = -0.059 + 0.02483 * b;
  const invalpha = 1.1239 + 1.1328 / (b - 3.4);
  const vr = 0.9277 - 3.6224 / (b - 2);
  for (;;) {
    const u = random() - 0.5;
    const v = random();
    const us = 0.5 - Math.abs(u);
    const k = Math.floor(((2 * a) / us + b) * u + lambda + 0.43);
    if (us >= 0.07 && v <= vr) return k;
    if (k < 0 || (us < 0.013 && v > us)) continue;
    if (Math.log(v) + Math.log(invalpha) - Math.log(a / (us * us) + b) <= -lambda + k * loglam - logGamma(k + 1)) return k;
  }
}

const LOGGAM_COEFFS = [
  8.333333333333333e-2, -2.777777777777778e-3, 7.936507936507937e-4, -5.952380952380952e-4, 8.417508417508418e-4, -1.917526917526918e-3, 6.41025641025641e-3, -2.955065359477124e-2,
  1.796443723688307e-1, -1.3924322169059,
];

/** log Γ(x) for x > 0 (Stirling series after shifting x above 7, as numpy's `random_loggam`). */
export function logGamma(x: number): number {
  if (x === 1 || x === 2) return 0;
  let x0 = x;
  let n = 0;
  if (x <= 7) {
    n = Math.floor(7 - x);
    x0 = x + n;
  }
  const x2 = 1 / (x0 * x0);
  let gl0 = LOGGAM_COEFFS[9]!;
  for (let k = 8; k >= 0; k -= 1) gl0 = gl0 * x2 + LOGGAM_COEFFS[k]!;
  let gl = gl0 / x0 + 0.5 * Math.log(2 * Math.PI) + (x0 - 0.5) * Math.log(x0) - x0;
  if (x <= 7) {
    for (let k = 1; k <= n; k += 1) {
      gl -= Math.log(x0 - 1);
      x0 -= 1;
    }
  }
  return gl;
}
