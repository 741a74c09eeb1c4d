import { describe, expect, it } from 'vitest';
import { mixtureQuantile, type StreamDistribution } from './mixture-quantile.js';

const stream = (min: number, p50: number, p90: number, p99: number, max: number, weight = 1): StreamDistribution => ({
  knots: [
    [min, 0],
    [p50, 0.5],
    [p90, 0.9],
    [p99, 0.99],
    [max, 1],
  ],
  weight,
});

describe('mixtureQuantile', () => {
  it("gives back the streams' own percentiles when all streams are alike", () => {
    const streams = [stream(20, 34, 41, 70, 3172), stream(20, 34, 41, 70, 3172, 5)];
    expect(mixtureQuantile(streams, 0.5)).toBeCloseTo(34, 10);
    expect(mixtureQuantile(streams, 0.9)).toBeCloseTo(41, 10);
    expect(mixtureQuantile(streams, 0.99)).toBeCloseTo(70, 10);
    expect(mixtureQuantile(streams, 0)).toBe(20);
    expect(mixtureQuantile(streams, 1)).toBe(3172);
  });

  it('solves a mixture by hand: two uniform streams', () => {
    // A: uniform 0..100, B: uniform 100..200, equal weight: the median is 100, p90 is 180.
    const a = stream(0, 50, 90, 99, 100);
    const b = stream(100, 150, 190, 199, 200);
    expect(mixtureQuantile([a, b], 0.5)).toBeCloseTo(100, 10);
    expect(mixtureQuantile([a, b], 0.9)).toBeCloseTo(180, 10);
    // Three times more transactions in A: F(x) = 0.75 * x / 100 below 100, so the median is 66.67.
    expect(mixtureQuantile([{ ...a, weight: 3 }, b], 0.5)).toBeCloseTo(200 / 3, 10);
  });

  it('differs from the mean of per-stream percentiles, and stays between them', () => {
    const fast = stream(10, 20, 30, 40, 50, 9);
    const slow = stream(100, 200, 300, 400, 500, 1);
    const p99 = mixtureQuantile([fast, slow], 0.99) as number;
    expect(p99).not.toBeCloseTo((40 + 400) / 2, 0);
    expect(p99).toBeGreaterThanOrEqual(40);
    expect(p99).toBeLessThanOrEqual(400);
    // 90% of transactions are the fast stream's: the mixture's p90 is the fast stream's max.
    expect(mixtureQuantile([fast, slow], 0.9)).toBeCloseTo(50, 10);
  });

  it('handles atoms (several percentiles at one value) and clamps crossing percentiles', () => {
    const atom = stream(30, 30, 30, 31, 40);
    expect(mixtureQuantile([atom], 0.5)).toBe(30);
    expect(mixtureQuantile([atom], 0.95)).toBeCloseTo(30 + 0.05 / 0.09, 10);
    const crossing: StreamDistribution = {
      knots: [
        [25, 0],
        [22, 0.5],
        [41, 0.9],
        [70, 0.99],
        [3172, 1],
      ],
      weight: 1,
    };
    expect(mixtureQuantile([crossing], 0.5)).toBe(25);
  });

  it('is undefined without a usable stream', () => {
    expect(mixtureQuantile([], 0.5)).toBeUndefined();
    expect(mixtureQuantile([{ knots: [[30, 0.5]], weight: 1 }], 0.5)).toBeUndefined();
    expect(mixtureQuantile([stream(1, 2, 3, 4, 5, 0)], 0.5)).toBeUndefined();
  });
});
