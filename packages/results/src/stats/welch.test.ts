import { seededRandom } from '@netbench/core';
import { describe, expect, it } from 'vitest';
import { rankTestFloor, type WelchLogResult, welchLogT } from './welch.js';

// Expected numbers computed independently with SciPy 1.17.1 / NumPy 2.4.6 (python3 venv):
//   r = scipy.stats.ttest_ind(np.log(b), np.log(a), equal_var=False); r.statistic, r.df, r.pvalue
//   ci = r.confidence_interval(0.95); np.exp(ci.low), np.exp(ci.high)
const SCIPY = {
  clear: {
    a: [940, 941, 938],
    b: [610, 612, 608],
    t: -204.48503231196187,
    df: 2.92768197967684,
    p: 3.55005782497566e-7,
    ratio: 0.6491646169274994,
    low: 0.6447528046616279,
    high: 0.6536066176428489,
  },
  overlap: {
    a: [30.1, 29.5, 30.8],
    b: [30.4, 29.9, 31.2],
    t: 0.6885877235641251,
    df: 3.9998624946064654,
    p: 0.528941489959251,
    ratio: 1.0121698096116574,
    low: 0.9639866368606518,
    high: 1.0627613333164834,
  },
  modest: {
    a: [31.2, 30.4, 30.9],
    b: [33.0, 32.1, 33.6],
    t: 4.234725227299834,
    df: 3.1779496317115807,
    p: 0.021470809151101573,
    ratio: 1.0669003662293,
    low: 1.0177531252274028,
    high: 1.1184209247265957,
  },
  twoThree: {
    a: [100, 104],
    b: [110, 113, 108],
    t: 3.3275422484066883,
    df: 1.9075539280072475,
    p: 0.08493136738215983,
    ratio: 1.0817202463584443,
    low: 0.9724998531927258,
    high: 1.2032070622327224,
  },
  flatSide: { a: [50, 50, 50], b: [52, 55, 51], t: 2.272502105045825, df: 2.0, p: 0.15097896831847774, ratio: 1.05279076189145, low: 0.9550818874462104, high: 1.1604956631390442 },
};

const accepted = (r: ReturnType<typeof welchLogT>): WelchLogResult => {
  if ('refused' in r) throw new Error(`refused: ${r.refused}`);
  return r;
};

describe("Welch's t-test on logarithms", () => {
  it("gives SciPy's t, df, p and interval (ttest_ind(log b, log a, equal_var=False))", () => {
    for (const [name, c] of Object.entries(SCIPY)) {
      const r = accepted(welchLogT(c.a, c.b));
      expect(r.t / c.t, name).toBeCloseTo(1, 9);
      expect(r.df, name).toBeCloseTo(c.df, 8);
      expect(r.p / c.p, name).toBeCloseTo(1, 7);
      expect(r.ratio, name).toBeCloseTo(c.ratio, 12);
      expect(r.low, name).toBeCloseTo(c.low, 8);
      expect(r.high, name).toBeCloseTo(c.high, 8);
      expect(r).toMatchObject({ confidence: 0.95, n1: c.a.length, n2: c.b.length });
    }
  });

  it('refuses values ≤ 0 (no logarithm), sides without spread, and single values', () => {
    expect(welchLogT([0, 1, 2], [3, 4, 5])).toEqual({ refused: 'non-positive' });
    expect(welchLogT([1, 2, 3], [-3, 4, 5])).toEqual({ refused: 'non-positive' });
    expect(welchLogT([7, 7, 7], [9, 9, 9])).toEqual({ refused: 'no spread' });
    expect(welchLogT([0.1, 0.1, 0.1], [0.3, 0.3])).toEqual({ refused: 'no spread' });
    expect(welchLogT([1], [2, 3])).toEqual({ refused: 'too few' });
  });

  it('keeps its false alarms near alpha at 3 against 3 on log-normal data, and finds a 10 % shift in 2 % noise', () => {
    const random = seededRandom(11);
    // Box–Muller: a standard normal from two uniforms.
    const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    const side = (median: number, sigma: number) => [0, 1, 2].map(() => median * Math.exp(sigma * normal()));
    const trials = 4000;
    let falseAlarms = 0;
    let found = 0;
    for (let i = 0; i < trials; i += 1) {
      if (accepted(welchLogT(side(100, 0.05), side(100, 0.05))).p < 0.05) falseAlarms += 1;
      if (accepted(welchLogT(side(100, 0.02), side(110, 0.02))).p < 0.05) found += 1;
    }
    // Welch is slightly conservative at 2–4 df; 4000 draws give a standard error of 0.0034 around a true rate.
    expect(falseAlarms / trials).toBeGreaterThan(0.02);
    expect(falseAlarms / trials).toBeLessThan(0.065);
    expect(found / trials).toBeGreaterThan(0.9);
  });
});

describe('rankTestFloor', () => {
  it('is 2 / C(n1 + n2, n1): 0.1 for 3 and 3, 2/70 for 4 and 4', () => {
    expect(rankTestFloor(3, 3)).toBeCloseTo(0.1, 12);
    expect(rankTestFloor(4, 4)).toBeCloseTo(2 / 70, 12);
    expect(rankTestFloor(2, 5)).toBeCloseTo(2 / 21, 12);
    expect(rankTestFloor(3, 4)).toBeCloseTo(2 / 35, 12);
    expect(rankTestFloor(1, 1)).toBe(1);
  });
});
