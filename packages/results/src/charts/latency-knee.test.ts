import { describe, expect, it } from 'vitest';
import { latencyKnee } from './latency-knee.js';

const points = (...pairs: [number, number][]) => pairs.map(([x, mean]) => ({ x, mean, n: 1 }));

describe('latencyKnee', () => {
  it('is the last offered load within 2x of the lowest-load latency, in load order', () => {
    expect(latencyKnee(points([4000, 1.9], [1000, 1], [2000, 1.2], [8000, 40]))?.x).toBe(4000);
  });

  it('is undefined when latency never doubles, or with too few points', () => {
    expect(latencyKnee(points([1000, 1], [2000, 1.5], [4000, 1.99]))).toBeUndefined();
    expect(latencyKnee(points([1000, 1], [2000, 5]))).toBeUndefined();
    expect(latencyKnee(points([1000, 0], [2000, 5], [3000, 9]))).toBeUndefined();
  });

  it('is the lowest load when the next one already doubles latency', () => {
    expect(latencyKnee(points([100, 1], [200, 3], [300, 9]))?.x).toBe(100);
  });
});
