import { describe, expect, it } from 'vitest';
import { LatencyHistogram } from '@netbench/plugin-api';
import type { EncodedHistogram, Labels, Sample } from '@netbench/plugin-api';
import { compareSamples } from './compare.js';
import { seededRandom } from '@netbench/core';
import { seriesLabels } from './series-key.js';

const random = seededRandom(2024);
let next = 0;
function sample(runId: string, metric: string, value: number, unit: string, labels: Labels = {}, histogram?: EncodedHistogram): Sample {
  next += 1;
  return {
    runId, sampleId: `${runId}-${next}`, trialId: 't0001', metric, value, unit, timestamp: 1_763_800_000_000 + next,
    labels: { run_id: runId, spec: 'cmp', netbench_version: '0.1.0', benchmark: 'netperf', tool: 'netperf', test: 'TCP_RR', client_zone: `zone-${runId}`, netperf_version: '2.7.0', ...labels },
    ...(histogram ? { histogram } : {}),
  };
}
const noisy = (center: number) => center * (1 + (random() - 0.5) * 0.04);
function latencies(runId: string, center: number, reps: number): Sample[] {
  return Array.from({ length: reps }, (_, i) => sample(runId, 'TCP_RR_Latency_p50', noisy(center), 'us', { repetition: i + 1 }));
}
function histogram(center: number, count = 3000): EncodedHistogram {
  const h = LatencyHistogram.create('us');
  for (let i = 0; i < count; i += 1) h.record(center * (0.8 + 0.4 * random()));
  return h.encode();
}

describe('compareSamples', () => {
  it('tests repetitions with Mann–Whitney and says a slower latency is worse', () => {
    const c = compareSamples(latencies('a', 30, 6), latencies('b', 36, 6));
    expect(c.rows).toHaveLength(1);
    const row = c.rows[0]!;
    expect(row).toMatchObject({ metric: 'TCP_RR_Latency_p50', statistic: 'value', unit: 'us', direction: 'lower', decidedBy: 'mann-whitney', significant: true, verdict: 'worse' });
    expect(row.baseline.n).toBe(6);
    expect(row.deltaPct).toBeGreaterThan(15);
    expect(row.mannWhitney!.p).toBeLessThan(0.01);
    expect(row.bootstrap!.low).toBeGreaterThan(0);
    expect(row.bootstrap!.of).toBe('difference of medians');
  });

  it('finds no difference between repetitions of one distribution', () => {
    const row = compareSamples(latencies('a', 30, 8), latencies('b', 30, 8)).rows[0]!;
    expect(row).toMatchObject({ decidedBy: 'mann-whitney', significant: false, verdict: 'no significant difference' });
    expect(row.bootstrap!.low).toBeLessThan(0);
    expect(row.bootstrap!.high).toBeGreaterThan(0);
  });

  it('calls identical values the same without a test', () => {
    const same = (run: string) => [1, 2, 3, 4].map((r) => sample(run, 'Packets Sent', 30, 'count', { repetition: r }));
    expect(compareSamples(same('a'), same('b')).rows[0]).toMatchObject({ verdict: 'no significant difference', significant: false, decidedBy: null, note: 'every value is the same' });
  });

  it('refuses to decide with too few or no repetitions', () => {
    expect(compareSamples(latencies('a', 30, 3), latencies('b', 60, 3)).rows[0]).toMatchObject({ verdict: 'too few repetitions', decidedBy: null, significant: null });
    expect(compareSamples(latencies('a', 30, 1), latencies('b', 60, 1)).rows[0]).toMatchObject({ verdict: 'no repetitions', decidedBy: null, baseline: { value: expect.any(Number), n: 1 } });
  });

  it('says once why 3 against 3 cannot decide, and that 4 a side can', () => {
    const few = compareSamples(latencies('a', 30, 3), latencies('b', 60, 3));
    expect(few.tooFew).toEqual({ rows: 1, note: expect.stringMatching(/^with 3 and 3 values a side Mann–Whitney cannot reach p < 0\.05 \(smallest possible p 0\.1\); 4 repetitions a side can/) });
    const four = compareSamples(latencies('a', 30, 4), latencies('b', 60, 4));
    expect(four.rows[0]).toMatchObject({ verdict: 'worse', decidedBy: 'mann-whitney' });
    expect(four.rows[0]!.mannWhitney!.p).toBeCloseTo(2 / 70, 10);
    expect(four.tooFew).toEqual({ rows: 0 });
  });

  it('compares histograms at p50/p90/p99, not by their mean, with the bootstrap deciding for single runs', () => {
    const c = compareSamples(
      [sample('a', 'Average Latency', 100, 'us', {}, histogram(100))],
      [sample('b', 'Average Latency', 100, 'us', {}, histogram(130))],
    );
    expect(c.rows.map((r) => r.statistic)).toEqual(['p50', 'p90', 'p99']);
    for (const row of c.rows) {
      expect(row).toMatchObject({ decidedBy: 'bootstrap', significant: true, verdict: 'worse' });
      expect(row.candidate.value).toBeGreaterThan(row.baseline.value);
      expect(row.bootstrap!.of).toBe(`difference of ${row.statistic}`);
    }
    expect(c.rows[0]!.baseline.n).toBe(3000);
  });

  it('lets Mann–Whitney decide histogram percentiles when there are repetitions, in the sample\'s unit', () => {
    // Repetitions that differ by a few percent, so their p50s do not tie.
    const side = (run: string, center: number) => Array.from({ length: 6 }, (_, i) => sample(run, 'Average Latency', center / 1000, 'ms', { repetition: i + 1 }, histogram(center * (1 + (i - 2.5) * 0.04), 500)));
    const c = compareSamples(side('a', 100), side('b', 100), { percentiles: [50] });
    expect(c.rows).toHaveLength(1);
    expect(c.rows[0]).toMatchObject({ statistic: 'p50', unit: 'ms', decidedBy: 'mann-whitney' });
    expect(c.rows[0]!.baseline.value).toBeGreaterThan(0.08);
    expect(c.rows[0]!.baseline.value).toBeLessThan(0.12);
  });

  it('matches series across runs whatever their run id, zone or tool version, and lists the unmatched', () => {
    const a = [sample('a', 'TCP_RR_Transaction_Rate', 30_000, 'transactions_per_second'), sample('a', 'Only_Here', 1, 'count')];
    const b = [sample('b', 'TCP_RR_Transaction_Rate', 20_000, 'transactions_per_second', { netperf_version: '2.7.1' })];
    const c = compareSamples(a, b);
    expect(c.rows).toHaveLength(1);
    expect(c.rows[0]).toMatchObject({ direction: 'higher', deltaPct: expect.closeTo(-33.33, 1) });
    expect(c.baselineOnly).toEqual(['Only_Here (test=TCP_RR)']);
    expect(compareSamples(a, b, { match: ['client_zone'] }).rows).toHaveLength(0);
  });

  it('is reproducible: the same data and seed give the same comparison', () => {
    const a = latencies('a', 30, 6);
    const b = latencies('b', 31, 6);
    expect(compareSamples(a, b, { seed: 5 })).toEqual(compareSamples(a, b, { seed: 5 }));
    expect(compareSamples(a, b, { seed: 5 }).rows[0]!.bootstrap).not.toEqual(compareSamples(a, b, { seed: 6 }).rows[0]!.bootstrap);
  });

  it('keeps what was measured in the series labels and drops run and environment', () => {
    expect(seriesLabels({ run_id: 'x', spec: 's', tool: 'ping', ping_root: true, ping_version: 'v', client_zone: 'z', host_client_netns: 'n', direction: 'forward', count: 20, repetition: 2 }))
      .toEqual({ count: 20, direction: 'forward', tool: 'ping' });
  });
});
