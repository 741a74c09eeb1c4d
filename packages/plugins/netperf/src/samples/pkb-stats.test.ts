import { describe, expect, it } from 'vitest';
import { pkbThroughputStats } from './pkb-stats.js';

describe('pkbThroughputStats', () => {
  it('computes what PKB computes for multi-stream throughput', () => {
    const stats = pkbThroughputStats([400, 100, 300, 200]);
    // Nearest rank: index floor(4 * p / 100): p50 -> sorted[2], p90 -> sorted[3], p99 -> sorted[3].
    expect(stats).toEqual({ p50: 300, p90: 400, p99: 400, average: 250, stddev: Math.sqrt(50000 / 3), min: 100, max: 400, total: 1000 });
  });

  it('has zero stddev for one value and refuses none', () => {
    expect(pkbThroughputStats([7]).stddev).toBe(0);
    expect(() => pkbThroughputStats([])).toThrow(RangeError);
  });
});
