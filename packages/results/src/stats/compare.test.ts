import { seededRandom } from '@netbench/core';
import type { EncodedHistogram, Labels, Sample } from '@netbench/plugin-api';
import { LatencyHistogram } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import { compareSamples } from './compare.js';
import { seriesLabels } from './series-key.js';

const random = seededRandom(2024);
let next = 0;
function sample(runId: string, metric: string, value: number, unit: string, labels: Labels = {}, histogram?: EncodedHistogram): Sample {
  next += 1;
  return {
    runId,
    sampleId: `${runId}-${next}`,
    trialId: 't0001',
    metric,
    value,
    unit,
    timestamp: 1_763_800_000_000 + next,
    labels: {
      run_id: runId,
      spec: 'cmp',
      netbench_version: '0.1.0',
      benchmark: 'netperf',
      tool: 'netperf',
      test: 'TCP_RR',
      client_zone: `zone-${runId.slice(0, 1)}`,
      netperf_version: '2.7.0',
      ...labels,
    },
    ...(histogram ? { histogram } : {}),
  };
}
const noisy = (center: number) => center * (1 + (random() - 0.5) * 0.04);
/** One run per value: runs are the replicates when the sides are different runs. */
const run = (side: string, i: number) => `${side}${i + 1}`;
function latencies(side: string, center: number, runs: number): Sample[] {
  return Array.from({ length: runs }, (_, i) => sample(run(side, i), 'TCP_RR_Latency_p50', noisy(center), 'us'));
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
    const same = (side: string) => [0, 1, 2, 3].map((i) => sample(run(side, i), 'Packets Sent', 30, 'count'));
    expect(compareSamples(same('a'), same('b')).rows[0]).toMatchObject({
      verdict: 'no significant difference',
      significant: false,
      decidedBy: null,
      note: 'every value is the same',
    });
  });

  it('says "no repetitions" with one value a side', () => {
    expect(compareSamples(latencies('a', 30, 1), latencies('b', 60, 1)).rows[0]).toMatchObject({
      verdict: 'no repetitions',
      decidedBy: null,
      baseline: { value: expect.any(Number), n: 1 },
    });
  });

  it("decides a clear 3 against 3 with Welch's t-test on logarithms, naming it and its assumption once", () => {
    const few = compareSamples(latencies('a', 30, 3), latencies('b', 60, 3));
    const row = few.rows[0]!;
    expect(row).toMatchObject({ verdict: 'worse', decidedBy: 'welch-log', significant: true, welch: { n1: 3, n2: 3 } });
    expect(row.welch!.p).toBeLessThan(0.001);
    expect(row.welch!.ratio).toBeCloseTo(2, 1);
    expect(row.mannWhitney!.minP).toBeCloseTo(0.1, 10);
    expect(row.note).toMatch(
      /^with 3 and 3 values Mann–Whitney cannot reach p < 0\.05 \(smallest possible p 0\.1\); decided by Welch's t-test on the logarithms, which assumes log-normal values/,
    );
    expect(few.tooFew).toEqual({ rows: 0 });
    expect(few.welch).toEqual({
      rows: 1,
      note: 'with 3 and 3 values a side Mann–Whitney cannot reach p < 0.05 (smallest possible p 0.1); the t-test assumes each side is log-normal (positive values, multiplicative noise); rows: netperf TCP_RR TCP_RR_Latency_p50 (decided by "Welch t on logs")',
    });
  });

  it('gives SciPy\'s Welch p through compare, and an overlapping 3 against 3 stays "no significant difference"', () => {
    // scipy.stats.ttest_ind(np.log(b), np.log(a), equal_var=False).pvalue, SciPy 1.17.1 (see welch.test.ts).
    const side = (name: string, values: number[]) => values.map((v, i) => sample(run(name, i), 'TCP_RR_Latency_p50', v, 'us'));
    const modest = compareSamples(side('a', [31.2, 30.4, 30.9]), side('b', [33.0, 32.1, 33.6])).rows[0]!;
    expect(modest).toMatchObject({ verdict: 'worse', decidedBy: 'welch-log', significant: true });
    expect(modest.welch!.p / 0.021470809151101573).toBeCloseTo(1, 7);
    const overlap = compareSamples(side('a', [30.1, 29.5, 30.8]), side('b', [30.4, 29.9, 31.2])).rows[0]!;
    expect(overlap).toMatchObject({ verdict: 'no significant difference', decidedBy: 'welch-log', significant: false });
    expect(overlap.welch!.p / 0.528941489959251).toBeCloseTo(1, 7);
    expect(overlap.welch!.low).toBeLessThan(1);
    expect(overlap.welch!.high).toBeGreaterThan(1);
  });

  it('uses Welch only while the counts keep Mann–Whitney from alpha: 2 and 5 yes, 2 and 8 or 4 and 4 no', () => {
    const side = (run: string, center: number, n: number) => latencies(run, center, n);
    expect(compareSamples(side('a', 30, 2), side('b', 60, 5)).rows[0]).toMatchObject({ decidedBy: 'welch-log', verdict: 'worse' });
    expect(compareSamples(side('a', 30, 2), side('b', 60, 8)).rows[0]).toMatchObject({ decidedBy: 'mann-whitney', verdict: 'worse' });
    const four = compareSamples(latencies('a', 30, 4), latencies('b', 60, 4));
    expect(four.rows[0]).toMatchObject({ verdict: 'worse', decidedBy: 'mann-whitney' });
    expect(four.rows[0]!.mannWhitney!.p).toBeCloseTo(2 / 70, 10);
    expect(four.rows[0]!.welch).toBeUndefined();
    expect(four.welch).toEqual({ rows: 0 });
    // With alpha 0.01, 4 and 4 (smallest p 0.029) is too few for the rank test too.
    expect(compareSamples(latencies('a', 30, 4), latencies('b', 60, 4), { alpha: 0.01 }).rows[0]).toMatchObject({ decidedBy: 'welch-log', welch: { confidence: 0.99 } });
  });

  it('falls back to "too few repetitions" with the reason: a value ≤ 0, no spread, ties', () => {
    const side = (name: string, metric: string, values: number[]) => values.map((v, i) => sample(run(name, i), metric, v, 'count'));
    const c = compareSamples(
      [...side('a', 'TCP_Retransmits', [0, 2, 1]), ...side('a', 'Offset', [-3, 1, 2]), ...side('a', 'Packets Lost', [7, 7, 7]), ...side('a', 'Errors', [1, 1, 1, 1])],
      [...side('b', 'TCP_Retransmits', [5, 4, 6]), ...side('b', 'Offset', [4, 5, 6]), ...side('b', 'Packets Lost', [9, 9, 9]), ...side('b', 'Errors', [1, 1, 1, 2])],
    );
    const row = (metric: string) => c.rows.find((r) => r.metric === metric)!;
    expect(row('TCP_Retransmits')).toMatchObject({
      verdict: 'too few repetitions',
      decidedBy: null,
      significant: null,
      welchRefused: 'non-positive',
      note: expect.stringMatching(/Welch's t-test on logarithms cannot stand in: a value ≤ 0 has no logarithm$/),
    });
    expect(row('Offset')).toMatchObject({ verdict: 'too few repetitions', welchRefused: 'non-positive' });
    expect(row('Packets Lost')).toMatchObject({ verdict: 'too few repetitions', welchRefused: 'no spread', note: expect.stringMatching(/no spread within either side/) });
    // 4 and 4 could reach 0.029 without ties; seven 1s and one 2 give p 1 whichever side the 2 is on.
    expect(row('Errors')).toMatchObject({ verdict: 'too few repetitions', note: expect.stringMatching(/smallest possible p 1\): too many ties$/) });
    expect(row('Errors').welchRefused).toBeUndefined();
    expect(c.tooFew).toEqual({
      rows: 4,
      note:
        "with 3 and 3, 4 and 4 values a side Mann–Whitney cannot reach p < 0.05 (smallest possible p 0.1); undecided: 2 with a value ≤ 0 (no logarithm for Welch's t-test), " +
        "1 without spread within either side (Welch's t-test has no noise to estimate), 1 held back by ties; 4 runs a side let Mann–Whitney decide (p down to 0.0286), 5 leave room (0.00794)",
    });
    expect(c.welch).toEqual({ rows: 0 });
  });

  it("compares histograms at p50/p90/p99, not by their mean, and never tests one run's packets as replicates", () => {
    const c = compareSamples([sample('a', 'Average Latency', 100, 'us', {}, histogram(100))], [sample('b', 'Average Latency', 100, 'us', {}, histogram(130))]);
    expect(c.rows.map((r) => r.statistic)).toEqual(['p50', 'p90', 'p99']);
    for (const row of c.rows) {
      // 3000 packets a side, 30 % apart: still one run each, so no verdict.
      expect(row).toMatchObject({
        decidedBy: null,
        significant: null,
        verdict: 'no repetitions',
        note: 'not tested: one run each',
        replicates: 'run',
        baseline: { n: 1, observations: 3000 },
      });
      expect(row.candidate.value).toBeGreaterThan(row.baseline.value);
      expect(row.bootstrap).toBeUndefined();
    }
    expect(c.unrepeated).toBe(3);
  });

  it("lets Mann–Whitney decide histogram percentiles when there are repetitions, in the sample's unit", () => {
    // Repetitions that differ by a few percent, so their p50s do not tie.
    const side = (name: string, center: number) =>
      Array.from({ length: 6 }, (_, i) => sample(run(name, i), 'Average Latency', center / 1000, 'ms', {}, histogram(center * (1 + (i - 2.5) * 0.04), 500)));
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
    expect(
      seriesLabels({
        run_id: 'x',
        spec: 's',
        tool: 'ping',
        ping_root: true,
        ping_version: 'v',
        client_zone: 'z',
        host_client_netns: 'n',
        direction: 'forward',
        count: 20,
        repetition: 2,
      }),
    ).toEqual({ count: 20, direction: 'forward', tool: 'ping' });
  });

  it('tests runs, not the repetitions within a run, when the sides are different runs', () => {
    const reps = (runId: string, center: number) => Array.from({ length: 6 }, (_, i) => sample(runId, 'TCP_RR_Latency_p50', noisy(center), 'us', { repetition: i + 1 }));
    // Six repetitions a side, clearly apart, but one run each: the runs' conditions are not replicated.
    const one = compareSamples(reps('a', 30), reps('b', 36)).rows[0]!;
    expect(one).toMatchObject({
      verdict: 'no repetitions',
      significant: null,
      decidedBy: null,
      note: 'not tested: one run each',
      replicates: 'run',
      baseline: { n: 1, observations: 6 },
    });
    // Four runs a side of six repetitions each: four values a side, each a run's median.
    const many = compareSamples(
      ['a1', 'a2', 'a3', 'a4'].flatMap((r) => reps(r, 30)),
      ['b1', 'b2', 'b3', 'b4'].flatMap((r) => reps(r, 36)),
    );
    expect(many.rows[0]).toMatchObject({ replicates: 'run', decidedBy: 'mann-whitney', verdict: 'worse', baseline: { n: 4, observations: 24 } });
    expect(many.rows[0]!.mannWhitney!.p).toBeCloseTo(2 / 70, 10);
    // Both sides from the same run (two configurations interleaved in it): its repetitions are the replicates.
    const within = compareSamples(
      reps('a', 30),
      reps('a', 36).map((x) => ({ ...x, labels: { ...x.labels, streams: 2 } })),
      { ignore: ['streams'] },
    );
    expect(within.rows[0]).toMatchObject({ replicates: 'repetition', decidedBy: 'mann-whitney', verdict: 'worse', baseline: { n: 6 } });
  });

  it('says which side has one run, and that 2 against 2 runs cannot reach alpha with Mann–Whitney', () => {
    expect(compareSamples(latencies('a', 30, 1), latencies('b', 36, 4)).rows[0]).toMatchObject({ verdict: 'no repetitions', note: 'not tested: one run in the baseline' });
    const two = compareSamples(latencies('a', 30, 2), latencies('b', 30.1, 2));
    expect(two.rows[0]!.mannWhitney!.minP).toBeCloseTo(1 / 3, 10);
    expect(two.rows[0]!.note).toMatch(/^with 2 and 2 values Mann–Whitney cannot reach p < 0\.05 \(smallest possible p 0\.333\)/);
  });

  it("never pools one side's runs from different zones as replicates", () => {
    const zone = (side: Sample[], z: (i: number) => string) => side.map((x, i) => ({ ...x, labels: { ...x.labels, client_zone: z(i) } }));
    // Four runs a side, each baseline run in its own zone.
    const c = compareSamples(
      zone(latencies('a', 30, 4), (i) => `zone-a${i + 1}`),
      latencies('b', 36, 4),
    );
    expect(c.rows[0]).toMatchObject({
      verdict: 'no repetitions',
      significant: null,
      note: expect.stringMatching(/^not tested: the baseline's samples differ in client_zone \(zone-a1, zone-a2, zone-a3, …\)/),
    });
    // Said in the row, not counted as "one run on a side".
    expect(c.unrepeated).toBe(0);
    // One zone a side (zone a against zone b, the point of a zone comparison): tested.
    expect(
      compareSamples(
        zone(latencies('a', 30, 4), () => 'a'),
        zone(latencies('b', 36, 4), () => 'b'),
      ).rows[0],
    ).toMatchObject({ verdict: 'worse', decidedBy: 'mann-whitney' });
  });
});
