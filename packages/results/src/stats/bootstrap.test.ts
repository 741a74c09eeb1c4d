import { seededRandom } from '@netbench/core';
import { describe, expect, it } from 'vitest';
import { bootstrapMedianDiff, excludesZero } from './bootstrap.js';

describe('bootstrap interval of the difference of medians', () => {
  const random = seededRandom(3);
  const a = Array.from({ length: 12 }, () => 100 + random() * 10);
  const b = Array.from({ length: 12 }, () => 120 + random() * 10);

  it('is reproducible from its seed and changes with it', () => {
    const one = bootstrapMedianDiff(a, b, { seed: 11, confidence: 0.95 });
    expect(bootstrapMedianDiff(a, b, { seed: 11, confidence: 0.95 })).toEqual(one);
    expect(bootstrapMedianDiff(a, b, { seed: 12, confidence: 0.95 })).not.toEqual(one);
    expect(one).toMatchObject({ resamples: 2000, seed: 11, confidence: 0.95 });
  });

  it('excludes zero for clearly separated groups and brackets the true shift', () => {
    const ci = bootstrapMedianDiff(a, b, { seed: 1, confidence: 0.95 });
    expect(excludesZero(ci)).toBe(true);
    expect(ci.low).toBeGreaterThan(10);
    expect(ci.high).toBeLessThan(30);
  });

  it('includes zero for samples from one distribution', () => {
    const c = Array.from({ length: 12 }, () => 100 + random() * 10);
    const ci = bootstrapMedianDiff(a, c, { seed: 1, confidence: 0.95 });
    expect(ci.low).toBeLessThan(0);
    expect(ci.high).toBeGreaterThan(0);
  });
});
