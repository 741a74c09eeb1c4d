import { seededRandom } from '@netbench/core';
import { LatencyHistogram } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import { bootstrapPercentileDiffs, distributionPercentile, histogramDistribution } from './histogram-distribution.js';

function histogram(shift: number, seed: number, count = 2000, unit: 'us' | 'ns' = 'us') {
  const random = seededRandom(seed);
  const h = LatencyHistogram.create(unit);
  const scale = unit === 'ns' ? 1000 : 1;
  for (let i = 0; i < count; i += 1) h.record((50 + shift + 30 * -Math.log(1 - random())) * scale);
  return h.encode();
}

describe('histogram distributions', () => {
  it("percentiles equal HdrHistogram's own, also after merging", () => {
    const parts = [histogram(0, 1), histogram(5, 2)];
    const merged = LatencyHistogram.merge(parts);
    const d = histogramDistribution(parts);
    expect(d.total).toBe(4000);
    for (const p of [1, 50, 90, 99, 99.9, 100]) expect(distributionPercentile(d.values, d.counts, d.total, p)).toBe(merged.percentile(p));
  });

  it('converts units when merging', () => {
    const d = histogramDistribution([histogram(0, 1), histogram(0, 1, 2000, 'ns')]);
    expect(d.unit).toBe('us');
    const alone = histogramDistribution([histogram(0, 1)]);
    expect(distributionPercentile(d.values, d.counts, d.total, 50)).toBeCloseTo(distributionPercentile(alone.values, alone.counts, alone.total, 50), -1);
  });

  it('bootstrap intervals include zero for one distribution and exclude it for a 20 us shift', () => {
    const base = histogramDistribution([histogram(0, 1)]);
    const same = histogramDistribution([histogram(0, 2)]);
    const slower = histogramDistribution([histogram(20, 3)]);
    const [p50same] = bootstrapPercentileDiffs(base, same, [50], { seed: 1, confidence: 0.95, resamples: 500 });
    expect(p50same!.low).toBeLessThan(0);
    expect(p50same!.high).toBeGreaterThan(0);
    const shifted = bootstrapPercentileDiffs(base, slower, [50, 90], { seed: 1, confidence: 0.95, resamples: 500 });
    for (const ci of shifted) {
      expect(ci.low).toBeGreaterThan(5);
      expect(ci.high).toBeLessThan(40);
    }
    expect(bootstrapPercentileDiffs(base, slower, [50], { seed: 1, confidence: 0.95, resamples: 500 })).toEqual(shifted.slice(0, 1));
  });
});
