import type { Labels, RunRecord, Sample } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import { compareSamples } from './compare.js';
import { runDifferences } from './run-differences.js';
import { seriesKey } from './series-key.js';

let next = 0;
function sample(runId: string, metric: string, value: number, unit: string, labels: Labels = {}, trialId: string | undefined = 't0001'): Sample {
  next += 1;
  return {
    runId,
    sampleId: `${runId}-${next}`,
    ...(trialId ? { trialId } : {}),
    metric,
    value,
    unit,
    timestamp: 1_763_800_000_000 + next,
    labels: { run_id: runId, spec: 'cmp', benchmark: 'iperf3', tool: 'iperf3', test: 'tcp', client_host: 'a', server_host: 'b', ...labels },
  };
}

/** iperf3 per-interval samples as the plugin labels them: each with its own start and end. */
function intervals(runId: string, values: readonly number[]): Sample[] {
  return values.map((v, i) => sample(runId, 'Interval Throughput', v, 'Mbits/sec', { interval_start: i, interval_end: i + 1.000123 * (runId.startsWith('a') ? 1 : 1.01) }));
}

function run(runId: string, specText: string): RunRecord {
  return {
    runId,
    name: 'cmp',
    status: 'succeeded',
    startedAt: '2026-11-25T04:00:00.000Z',
    finishedAt: '2026-11-25T04:01:00.000Z',
    runDir: `/tmp/${runId}`,
    owner: 'test',
    netbenchVersion: '0.1.0',
    specText,
    hosts: [],
    trials: [],
    phases: [],
    errors: [],
    labels: {},
  };
}

describe('compare rules', () => {
  it('compares per-interval samples as one series, each run contributing the median of its intervals', () => {
    const c = compareSamples(intervals('a', [940, 941, 939, 942, 938, 940]), intervals('b', [610, 612, 608, 611, 609, 610]));
    expect(c.baselineOnly).toEqual([]);
    expect(c.candidateOnly).toEqual([]);
    expect(c.rows).toHaveLength(1);
    const [row] = c.rows;
    // Six intervals of one trial are one run's throughput over time, not six replicates.
    expect(row).toMatchObject({
      metric: 'Interval Throughput',
      statistic: 'intervals',
      verdict: 'no repetitions',
      note: 'not tested: one run each',
      baseline: { n: 1, observations: 6, value: 940 },
    });
    expect(row!.labels['interval_start']).toBeUndefined();
    // Intervals of one trial are expected to share a key: no "pooled" warning.
    expect(c.warnings).toEqual([]);
    // Four runs a side: four medians of intervals a side, which Mann–Whitney can decide.
    const runs = (side: string, level: number) => ['1', '2', '3', '4'].flatMap((i, k) => intervals(`${side}${i}`, [level + k, level + 1 + k, level - 1 + k]));
    expect(compareSamples(runs('a', 940), runs('b', 610)).rows[0]).toMatchObject({
      statistic: 'intervals',
      decidedBy: 'mann-whitney',
      verdict: 'worse',
      baseline: { n: 4, observations: 12 },
    });
  });

  it('leaves run-level bookkeeping (phase_duration) out of the rows, and counts it', () => {
    const side = (runId: string, v: number) => [
      sample(runId, 'Throughput', v, 'Mbits/sec'),
      sample(runId, 'phase_duration', 1.2, 's', { phase: 'provision' }, undefined),
      sample(runId, 'phase_duration', 5.1, 's', { phase: 'execute' }, undefined),
    ];
    const c = compareSamples(side('a', 900), side('b', 950));
    expect(c.rows.map((r) => r.metric)).toEqual(['Throughput']);
    expect(c.leftOut).toEqual({ baseline: 2, candidate: 2 });
    // Asked for by name, they are compared.
    expect(compareSamples(side('a', 900), side('b', 950), { metrics: ['phase_duration'] }).rows).toHaveLength(2);
  });

  it('counts rows without repetitions once for the header', () => {
    const c = compareSamples(
      [sample('a', 'Throughput', 900, 'Mbits/sec'), sample('a', 'Retransmits', 3, '')],
      [sample('b', 'Throughput', 950, 'Mbits/sec'), sample('b', 'Retransmits', 1, '')],
    );
    expect(c.unrepeated).toBe(2);
    expect(c.rows.every((r) => r.verdict === 'no repetitions')).toBe(true);
  });

  it('keeps provenance (source_file, imported) out of the series key, the host pair in it', () => {
    const a = sample('a', 'Throughput', 1, 'Mbits/sec', { source_file: '/data/x.json', imported: true });
    const b = sample('b', 'Throughput', 1, 'Mbits/sec', { source_file: '/data/y.json' });
    expect(seriesKey(a.metric, a.unit, a.labels)).toBe(seriesKey(b.metric, b.unit, b.labels));
    const other = sample('b', 'Throughput', 1, 'Mbits/sec', { server_host: 'c' });
    expect(seriesKey(other.metric, other.unit, other.labels)).not.toBe(seriesKey(b.metric, b.unit, b.labels));
  });

  it('keeps the study and the shard out of the series key: a trial measures the same in any shard and unsharded', () => {
    const whole = sample('a', 'Throughput', 1, 'Mbits/sec', { study: 'nightly-116' });
    const shard = sample('b', 'Throughput', 1, 'Mbits/sec', { study: 'nightly-117', shard: '2/4' });
    const otherSplit = sample('c', 'Throughput', 1, 'Mbits/sec', { study: 'nightly-118', shard: '0/8' });
    expect(seriesKey(shard.metric, shard.unit, shard.labels)).toBe(seriesKey(whole.metric, whole.unit, whole.labels));
    expect(seriesKey(otherSplit.metric, otherSplit.unit, otherSplit.labels)).toBe(seriesKey(shard.metric, shard.unit, shard.labels));
  });

  it('keeps outcomes (netperf confidence iterations and width) out of the series key, the level asked for in it', () => {
    const outcome = (iter: number, width: number, achieved: boolean, level = 99) =>
      sample('a', 'TCP_RR_Transaction_Rate', 1, 'transactions_per_second', {
        confidence_level: level,
        confidence_iter: iter,
        confidence_width_percent: width,
        confidence_achieved: achieved,
      });
    const [x, y, z] = [outcome(4, 2.522, true), outcome(10, 41.2, false), outcome(4, 2.5, true, 95)];
    expect(seriesKey(x.metric, x.unit, x.labels)).toBe(seriesKey(y.metric, y.unit, y.labels));
    expect(seriesKey(x.metric, x.unit, x.labels)).not.toBe(seriesKey(z.metric, z.unit, z.labels));
  });

  it('compares latency-under-load summaries whose probe counts differ by run (probe_count is an outcome, not a key)', () => {
    const load = (runId: string, loaded: number, probes: number) => [
      sample(runId, 'latency_idle_p50', 0.6, 'ms', { tool: 'load', flow: 'summary', probe: 'icmp', probe_count: probes - 23 }),
      sample(runId, 'latency_loaded_p50', loaded, 'ms', { tool: 'load', flow: 'summary', probe: 'icmp', load_direction: 'upload', probe_count: probes }),
    ];
    const c = compareSamples([...load('a1', 100, 48), ...load('a2', 101, 47)], [...load('b1', 1.1, 49), ...load('b2', 1.2, 48)]);
    expect(c.rows.map((r) => r.metric).sort()).toEqual(['latency_idle_p50', 'latency_loaded_p50']);
    expect(c.baselineOnly).toEqual([]);
    expect(c.candidateOnly).toEqual([]);
  });

  it('says what differs between the runs: spec fields, zones, machine types, tool versions', () => {
    const spec = (rate: string) => `name: cmp\nhosts:\n  a: { cloud: local }\n  b: { cloud: local${rate ? `, link: { rate: ${rate} }` : ''} }\n`;
    const base = [sample('a', 'Throughput', 1, 'Mbits/sec', { client_zone: 'z1', server_machine_type: 'n2-standard-4', iperf3_version: '3.12', host_client_netns: 'nb-a-client' })];
    const cand = [
      sample('b', 'Throughput', 1, 'Mbits/sec', {
        client_zone: 'z2',
        server_machine_type: 'n2-standard-4',
        iperf3_version: '3.16',
        host_client_netns: 'nb-b-client',
        client_kernel: '6.1.0',
      }),
    ];
    const diffs = runDifferences({ runs: [run('a', spec(''))], samples: base }, { runs: [run('b', spec('200mbit'))], samples: cand });
    expect(diffs).toEqual([
      { field: 'hosts.b.link.rate', source: 'spec', baseline: ['—'], candidate: ['200mbit'] },
      { field: 'client_zone', source: 'labels', baseline: ['z1'], candidate: ['z2'] },
      { field: 'client_kernel', source: 'labels', baseline: ['—'], candidate: ['6.1.0'] },
      { field: 'iperf3_version', source: 'labels', baseline: ['3.12'], candidate: ['3.16'] },
    ]);
    // Same spec, same environment: nothing differs (per-run namespace names are not differences).
    expect(runDifferences({ runs: [run('a', spec(''))], samples: base }, { runs: [run('b', spec(''))], samples: base.map((s) => ({ ...s, runId: 'b' })) })).toEqual([]);
  });
});
