import { seededRandom } from '@netbench/core';
import { describe, expect, it } from 'vitest';
import { mannWhitneyU } from './mann-whitney.js';

/** Two-sided exact p by brute force: every way of choosing which pooled values are the candidate's. */
function bruteForceP(a: number[], b: number[]): number {
  const pooled = [...a, ...b];
  const sorted = [...pooled].sort((x, y) => x - y);
  const rank = (v: number) => {
    const first = sorted.indexOf(v);
    const last = sorted.lastIndexOf(v);
    return (first + last) / 2 + 1;
  };
  const ranks = pooled.map(rank);
  const observed = b.reduce((s, v) => s + rank(v), 0);
  const mean = (b.length * (pooled.length + 1)) / 2;
  let extreme = 0;
  let total = 0;
  const choose = (start: number, left: number, sum: number) => {
    if (left === 0) {
      total += 1;
      if (Math.abs(sum - mean) >= Math.abs(observed - mean) - 1e-9) extreme += 1;
      return;
    }
    for (let i = start; i <= pooled.length - left; i += 1) choose(i + 1, left - 1, sum + ranks[i]!);
  };
  choose(0, b.length, 0);
  return extreme / total;
}

describe('Mann–Whitney U', () => {
  it('gives the textbook exact p for complete separation: 2 / C(8,4)', () => {
    const r = mannWhitneyU([1, 2, 3, 4], [5, 6, 7, 8]);
    expect(r.method).toBe('exact');
    expect(r.u).toBe(16);
    expect(r.p).toBeCloseTo(2 / 70, 10);
    expect(r.minP).toBeCloseTo(2 / 70, 10);
  });

  it('knows 3 against 3 can never reach p < 0.05', () => {
    const r = mannWhitneyU([1, 2, 3], [4, 5, 6]);
    expect(r.p).toBeCloseTo(0.1, 10);
    expect(r.minP).toBeGreaterThan(0.05);
  });

  it('matches brute-force enumeration with ties (mid-ranks, conditional distribution)', () => {
    const cases: [number[], number[]][] = [
      [
        [1, 2, 2, 3, 5],
        [2, 3, 4, 5, 5, 6],
      ],
      [
        [10, 10, 10, 11],
        [10, 11, 11, 12, 12],
      ],
      [
        [0.1, 0.2, 0.2, 0.2],
        [0.2, 0.2, 0.3],
      ],
      [
        [7, 7, 7],
        [7, 7, 7],
      ],
    ];
    for (const [a, b] of cases) expect(mannWhitneyU(a, b).p).toBeCloseTo(bruteForceP(a, b), 10);
    expect(mannWhitneyU([7, 7, 7], [7, 7, 7]).p).toBe(1);
  });

  it('normal approximation with tie correction agrees with the exact test on 30 + 30 values', () => {
    const random = seededRandom(42);
    // Rounded to whole numbers so there are many ties.
    const a = Array.from({ length: 30 }, () => Math.round(random() * 10));
    const b = Array.from({ length: 30 }, () => Math.round(random() * 10 + 4));
    const exact = mannWhitneyU(a, b, { method: 'exact' });
    const normal = mannWhitneyU(a, b, { method: 'normal' });
    expect(normal.method).toBe('normal');
    expect(normal.u).toBe(exact.u);
    expect(Math.abs(normal.p - exact.p)).toBeLessThan(0.005);
    expect(exact.p).toBeLessThan(0.05);
  });

  it('uses the normal approximation above 60 values, and finds no difference between equal samples', () => {
    const random = seededRandom(7);
    const a = Array.from({ length: 40 }, () => random());
    const b = Array.from({ length: 40 }, () => random());
    const r = mannWhitneyU(a, b);
    expect(r.method).toBe('normal');
    expect(r.p).toBeGreaterThan(0.05);
    expect(
      mannWhitneyU(
        a,
        b.map((x) => x + 1),
      ).p,
    ).toBeLessThan(1e-10);
  });
});
