import { describe, expect, it } from 'vitest';
import { meanInterval } from './confidence-interval.js';
import { studentTCdf, studentTQuantile } from './student-t.js';

describe('Student t', () => {
  it('gives the textbook two-sided 95% and 99% critical values', () => {
    // Values from any t table (e.g. NIST/SEMATECH e-Handbook, table 1.3.6.7.2).
    const table: [number, number, number][] = [[1, 12.706, 63.657], [2, 4.303, 9.925], [4, 2.776, 4.604], [9, 2.262, 3.25], [29, 2.045, 2.756], [120, 1.98, 2.617]];
    for (const [df, t95, t99] of table) {
      expect(studentTQuantile(0.975, df)).toBeCloseTo(t95, 2);
      expect(studentTQuantile(0.995, df)).toBeCloseTo(t99, 2);
    }
    expect(studentTQuantile(0.975, 1e6)).toBeCloseTo(1.96, 2);
    expect(studentTQuantile(0.025, 4)).toBeCloseTo(-2.776, 2);
    expect(studentTCdf(0, 7)).toBeCloseTo(0.5, 10);
    expect(() => studentTQuantile(1, 3)).toThrow(RangeError);
  });

  it('gives a signed metric (values below 0) mean ± t·s/√n', () => {
    const ci = meanInterval([-1, 0, 1, 2, 3]);
    expect(ci.mean).toBe(1);
    expect(ci.method).toBe('student-t');
    expect(ci.stddev).toBeCloseTo(1.5811, 4);
    expect(ci.high! - ci.mean).toBeCloseTo(2.776 * 1.5811 / Math.sqrt(5), 2);
    expect(ci.mean - ci.low!).toBeCloseTo(ci.high! - ci.mean, 10);
    expect(() => meanInterval([])).toThrow(RangeError);
  });
});
