import { describe, expect, it } from 'vitest';
import { latencyKnee } from './latency-knee.js';

const points = (...pairs: [number, number][]) => pairs.map(([x, mean]) => ({ x, mean, n: 1 }));
const rates = (...pairs: [number, number][]) => new Map(pairs);

describe('latencyKnee', () => {
  it('is the last offered rate the server kept up with (achieved >= 90 % of offered), in rate order', () => {
    expect(latencyKnee(points([4000, 1.9], [1000, 1], [2000, 1.2], [8000, 40]), rates([1000, 1000], [2000, 1990], [4000, 3900], [8000, 5100]))?.x).toBe(4000);
  });

  it('is not marked on latency noise while achieved matches offered (the oha sweep: p99 spiked at 4,000/s, every request served up to 16,000/s)', () => {
    const p99 = points([500, 3], [1000, 3.4], [2000, 2.1], [4000, 46], [8000, 5.2], [16000, 9]);
    expect(latencyKnee(p99, rates([500, 500], [1000, 1000], [2000, 2000], [4000, 3999], [8000, 7990], [16000, 15_900]))).toBeUndefined();
  });

  it('is undefined with too few points or without achieved rates', () => {
    expect(latencyKnee(points([1000, 1], [2000, 5]), rates([1000, 1000], [2000, 900]))).toBeUndefined();
    expect(latencyKnee(points([1000, 1], [2000, 5], [3000, 9]), rates())).toBeUndefined();
  });

  it('is the lowest rate when the next one already falls behind', () => {
    expect(latencyKnee(points([100, 1], [200, 3], [300, 9]), rates([100, 100], [200, 150], [300, 160]))?.x).toBe(100);
  });
});
