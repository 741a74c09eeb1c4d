import { describe, expect, it } from 'vitest';
import { incompleteBeta, logGamma, studentTCdf, studentTQuantile, tCritical, twoSidedTP } from './student-t.js';

describe('Student t', () => {
  it('gives the textbook two-sided 95% and 99% critical values', () => {
    // Values from any t table (e.g. NIST/SEMATECH e-Handbook, table 1.3.6.7.2).
    const table: [number, number, number][] = [
      [1, 12.706, 63.657],
      [2, 4.303, 9.925],
      [4, 2.776, 4.604],
      [9, 2.262, 3.25],
      [29, 2.045, 2.756],
      [120, 1.98, 2.617],
    ];
    for (const [df, t95, t99] of table) {
      expect(studentTQuantile(0.975, df)).toBeCloseTo(t95, 2);
      expect(studentTQuantile(0.995, df)).toBeCloseTo(t99, 2);
    }
    expect(studentTQuantile(0.975, 1e6)).toBeCloseTo(1.96, 2);
    expect(studentTQuantile(0.025, 4)).toBeCloseTo(-2.776, 2);
    expect(studentTCdf(0, 7)).toBeCloseTo(0.5, 10);
    expect(() => studentTQuantile(1, 3)).toThrow(RangeError);
  });

  // Expected numbers from SciPy 1.17.1 (python3 venv): 2 * scipy.stats.t.sf(t, df), scipy.stats.t.isf(p / 2, df),
  // scipy.special.betainc(a, b, x), scipy.special.gammaln(x).
  it('matches SciPy for ln Γ, the incomplete beta, tails and critical values at non-integer df', () => {
    for (const [x, want] of [
      [0.5, 0.5723649429247],
      [1, 0],
      [3.7, 1.428072326665388],
      [10, 12.801827480081469],
      [171.5, 709.1431630309283],
    ] as const) {
      expect(logGamma(x)).toBeCloseTo(want, 11);
    }
    expect(incompleteBeta(0.3, 2, 3)).toBeCloseTo(0.3483, 12);
    expect(incompleteBeta(0.9, 0.5, 0.5)).toBeCloseTo(0.7951672353008665, 12);
    expect(incompleteBeta(0.2, 1.85, 0.5)).toBeCloseTo(0.02120446425294634, 12);
    for (const [t, df, p] of [
      [2.5, 3.7, 0.07182202291182678],
      [0.3, 1.2, 0.8077728113170465],
      [8, 2, 0.01526807216533814],
      [1.96, 1000, 0.050273184955748736],
      [12, 1.05, 0.04722605748981551],
    ] as const) {
      expect(twoSidedTP(t, df) / p).toBeCloseTo(1, 9);
      expect(twoSidedTP(-t, df)).toBe(twoSidedTP(t, df));
    }
    for (const [p, df, t] of [
      [0.05, 2.3, 3.8071632082321325],
      [0.05, 1, 12.706204736174705],
      [0.01, 4, 4.604094871349993],
      [0.1, 30.5, 1.6963751158527456],
    ] as const) {
      expect(tCritical(p, df)).toBeCloseTo(t, 8);
    }
  });
});
