import { seededRandom } from '@netbench/core';
import { describe, expect, it } from 'vitest';
import { mad, median, quantileSelect, quantileSorted, sortedCopy } from './quantile.js';

describe('quantiles', () => {
  it('interpolate between order statistics (type 7) and agree sorted or selected', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(quantileSorted([10, 20, 30, 40, 50], 0.9)).toBeCloseTo(46, 10);
    expect(mad([1, 1, 2, 2, 4, 6, 9])).toBe(1);
    const random = seededRandom(5);
    for (const n of [1, 2, 3, 10, 101, 2000]) {
      const values = Float64Array.from({ length: n }, () => Math.round(random() * 50));
      const sorted = sortedCopy(values);
      for (const q of [0, 0.025, 0.5, 0.975, 1]) expect(quantileSelect(Float64Array.from(values), q)).toBe(quantileSorted(sorted, q));
    }
  });
});
