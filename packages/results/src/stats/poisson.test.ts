import { seededRandom } from '@netbench/core';
import { describe, expect, it } from 'vitest';
import { logGamma, poisson } from './poisson.js';

describe('poisson', () => {
  it.each([0.5, 3, 9.5, 10, 40, 5000])('draws with mean and variance λ = %s', (lambda) => {
    const random = seededRandom(99);
    const n = 20_000;
    const draws = Array.from({ length: n }, () => poisson(lambda, random));
    const mean = draws.reduce((s, x) => s + x, 0) / n;
    const variance = draws.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1);
    expect(draws.every((x) => Number.isInteger(x) && x >= 0)).toBe(true);
    // Five standard errors of the mean.
    expect(Math.abs(mean - lambda)).toBeLessThan(5 * Math.sqrt(lambda / n));
    expect(variance / lambda).toBeGreaterThan(0.9);
    expect(variance / lambda).toBeLessThan(1.1);
  });

  it('log-gamma matches factorials', () => {
    expect(logGamma(1)).toBe(0);
    expect(logGamma(5)).toBeCloseTo(Math.log(24), 10);
    expect(logGamma(21)).toBeCloseTo(Math.log(2432902008176640000), 8);
    expect(logGamma(0.5)).toBeCloseTo(Math.log(Math.sqrt(Math.PI)), 8);
  });
});
