/**
 * PKB's `sample.PercentileCalculator` plus the min/max/total its netperf
 * benchmark adds for multi-stream runs: nearest-rank percentiles
 * (index = floor(n * p / 100), clamped), mean, sample stddev (n - 1).
 */
export function pkbThroughputStats(values: readonly number[]): Record<'p50' | 'p90' | 'p99' | 'average' | 'stddev' | 'min' | 'max' | 'total', number> {
  if (values.length === 0) throw new RangeError('no values');
  const sorted = [...values].sort((a, b) => a - b);
  const count = sorted.length;
  const at = (p: number) => sorted[Math.min(Math.floor((count * p) / 100), count - 1)] as number;
  const total = sorted.reduce((sum, value) => sum + value, 0);
  const average = total / count;
  const stddev = count > 1 ? Math.sqrt(sorted.reduce((sum, value) => sum + (value - average) ** 2, 0) / (count - 1)) : 0;
  return {
    p50: at(50),
    p90: at(90),
    p99: at(99),
    average,
    stddev,
    min: sorted[0] as number,
    max: sorted[count - 1] as number,
    total,
  };
}
