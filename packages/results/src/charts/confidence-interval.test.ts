import { describe, expect, it } from 'vitest';
import { meanInterval } from './confidence-interval.js';

describe('meanInterval', () => {
  it('gives a signed metric (values below 0) mean ± t·s/√n', () => {
    const ci = meanInterval([-1, 0, 1, 2, 3]);
    expect(ci.mean).toBe(1);
    expect(ci.method).toBe('student-t');
    expect(ci.stddev).toBeCloseTo(1.5811, 4);
    expect(ci.high! - ci.mean).toBeCloseTo((2.776 * 1.5811) / Math.sqrt(5), 2);
    expect(ci.mean - ci.low!).toBeCloseTo(ci.high! - ci.mean, 10);
    expect(() => meanInterval([])).toThrow(RangeError);
  });
});
