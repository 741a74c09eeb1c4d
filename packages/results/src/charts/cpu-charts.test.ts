import type { RunResults, TrialRecord } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import { ResultsBuilder } from './__fixtures__/results.js';
import { chartsFor } from './charts-for.js';
import { CPU_LINES_PER_MACHINE, cpuTimeSeriesCharts } from './cpu-charts.js';

const T0 = 1_763_809_376_000;

/** Core's stored `cpuSeries`: `idle` per CPU per point (the other shares are not charted). */
const series = (start: number, t: number[], idle: number[][], machine?: string) => ({
  start,
  interval: 1,
  t,
  ...(machine ? { machine } : {}),
  cpus: idle.map((column, cpu) => ({
    cpu,
    user: column.map((i) => 100 - i),
    system: column.map(() => 0),
    softirq: column.map(() => 0),
    irq: column.map(() => 0),
    steal: column.map(() => 0),
    idle: column,
  })),
});

/** The results with the trial's explain record set (as the engine stores it). */
function withExplain(results: RunResults, trialId: string, hosts: readonly Record<string, unknown>[]): RunResults {
  const trials = results.run.trials.map((t): TrialRecord => (t.id === trialId ? ({ ...t, explain: { diagnoses: [], hosts: hosts as never } } as TrialRecord) : t));
  return { ...results, run: { ...results.run, trials } };
}

/** A 12 s iperf3 trial: 12 one-second intervals dated from `toolStart` (iperf3 dates its start to the whole second). */
function iperf3Trial(b: ResultsBuilder, toolStart: number) {
  const trial = b.trial('iperf3', 'tcp', { duration: 12, interval: 1 });
  for (let s = 1; s <= 12; s += 1) trial.add('Interval Throughput', 900 + s, 'Mbits/sec', { interval_start: s - 1, interval_end: s });
  trial.add('Throughput', 906, 'Mbits/sec');
  const results = b.build();
  return {
    id: trial.id,
    results: {
      ...results,
      samples: results.samples.map((s) => (typeof s.labels['interval_end'] === 'number' ? { ...s, timestamp: toolStart + Number(s.labels['interval_end']) * 1000 } : s)),
    },
  };
}

const seconds = (n: number, from = 1) => Array.from({ length: n }, (_, i) => from + i);

describe('CPU busy over time', () => {
  it("draws each CPU's busy share on the right axis beside the trial's throughput, on the tool's time axis; ends on one machine once", () => {
    // The first CPU read came 0.4 s after the whole second iperf3 dated its start to; the tool started after that read.
    const { id, results } = iperf3Trial(new ResultsBuilder(), T0);
    const idle = [seconds(12).map((s) => (s > 2 ? 3 : 90)), seconds(12).map(() => 80)];
    const run = withExplain(results, id, [
      { host: 'a', role: 'client', cpuSeries: series(T0 + 400, seconds(12), idle, 'boot-1') },
      { host: 'b', role: 'server', cpuSeries: series(T0 + 400, seconds(12), idle, 'boot-1') },
    ]);
    const [chart, ...others] = cpuTimeSeriesCharts([run]);
    expect(others).toEqual([]);
    expect(chart).toMatchObject({ kind: 'timeseries', id: `cpu-${id}`, y: { unit: 'Mbits/sec' }, y2: { label: 'CPU busy', unit: '%' }, runIds: [run.run.runId] });
    expect(chart!.title).toMatch(/^CPU busy and Interval Throughput over time: /);
    expect(chart!.series.map((s) => [s.name, s.axis])).toEqual([
      ['Interval Throughput', undefined],
      ['client+server cpu0', 2],
      ['client+server cpu1', 2],
    ]);
    // Time zero is the tool's start, no earlier than the first CPU read (T0 + 0.4 s): the throughput keeps its
    // interval ends, the CPU points sit at their read times since that zero.
    expect(chart!.series[0]!.points[0]).toEqual([1, 901]);
    expect(chart!.series[1]!.points.slice(0, 3)).toEqual([
      [1, 10],
      [2, 10],
      [3, 97],
    ]);
    expect(chart!.series[2]!.points.every((p) => p[1] === 20)).toBe(true);
    expect(chart!.span).toEqual([0, 12]);
    expect(chart!.notes.join(' ')).toMatch(/one machine/);
    // chartsFor draws it after the throughput's own time series.
    const ids = chartsFor([run]).map((c) => c.id);
    expect(ids.indexOf(`cpu-${id}`)).toBeGreaterThan(ids.indexOf('timeseries-interval-throughput'));
  });

  it("places reads of ends on two machines on the tool's clock: a read 1.5 s before the tool's start is at −0.5 s and left out", () => {
    const { id, results } = iperf3Trial(new ResultsBuilder(), T0 + 2_000);
    const run = withExplain(results, id, [
      { host: 'a', role: 'client', cpuSeries: series(T0 + 500, [1, 2, 3], [[50, 40, 30]], 'boot-1') },
      { host: 'b', role: 'server', cpuSeries: series(T0 + 500, [1, 2, 3], [[0, 0, 0]], 'boot-2') },
    ]);
    const [chart] = cpuTimeSeriesCharts([run]);
    expect(chart!.series.slice(1).map((s) => [s.name, s.points])).toEqual([
      [
        'client a cpu0',
        [
          [0.5, 60],
          [1.5, 70],
        ],
      ],
      [
        'server b cpu0',
        [
          [0.5, 100],
          [1.5, 100],
        ],
      ],
    ]);
  });

  it('a trial without interval samples gets the CPUs alone, timed from the first read; many CPUs: the busiest are drawn', () => {
    const b = new ResultsBuilder();
    const trial = b.trial('netperf', 'TCP_STREAM', { duration: 10 });
    trial.add('TCP_STREAM_Throughput', 9_000, 'Mbits/sec');
    const cpus = 20;
    // CPU k is idle 100 - 5k % (CPU 19 the busiest).
    const run = withExplain(b.build(), trial.id, [
      {
        host: 'a',
        role: 'client',
        cpuSeries: series(
          T0,
          [1, 2],
          Array.from({ length: cpus }, (_, k) => [100 - 5 * k, 100 - 5 * k]),
        ),
      },
    ]);
    const [chart] = cpuTimeSeriesCharts([run]);
    expect(chart).toMatchObject({ title: expect.stringMatching(/^CPU busy over time/), y: { unit: '%' } });
    expect(chart!.y2).toBeUndefined();
    expect(chart!.series).toHaveLength(CPU_LINES_PER_MACHINE);
    expect(chart!.series.map((s) => s.name)).toEqual(Array.from({ length: CPU_LINES_PER_MACHINE }, (_, i) => `client a cpu${cpus - CPU_LINES_PER_MACHINE + i}`));
    expect(chart!.notes.join(' ')).toMatch(/12 others are left out/);
    expect(chart!.notes.join(' ')).toMatch(/first CPU read/);
  });

  it('a synchronized-flows trial counts from its start as its per-flow charts do', () => {
    const b = new ResultsBuilder();
    const trial = b.trial('netperf', 'TCP_STREAM', { duration: 10 });
    // Two flows reporting 1 s intervals from T0 + 3 s (the barrier): the trial's clock starts at T0 + 2 s.
    for (let s = 1; s <= 10; s += 1) for (const flow of ['a->b', 'b->a']) trial.add('TCP_STREAM_Throughput', 100, 'Mbits/sec', { flow, series: 'interval', interval_seconds: 1 });
    const built = b.build();
    const results = { ...built, samples: built.samples.map((s, i) => ({ ...s, timestamp: T0 + 2_000 + (Math.floor(i / 2) + 1) * 1000 })) };
    const run = withExplain(results, trial.id, [{ host: 'a', role: 'client', cpuSeries: series(T0, [1, 2, 3, 4], [[100, 50, 50, 50]]) }]);
    const [chart] = cpuTimeSeriesCharts([run]);
    // Reads at T0 + 1…4 s: −1 s (left out), 0, 1, 2 s on the trial's clock.
    expect(chart!.series.map((s) => s.points)).toEqual([
      [
        [0, 50],
        [1, 50],
        [2, 50],
      ],
    ]);
    expect(chart!.notes.join(' ')).toMatch(/per-flow charts/);
  });

  it('draws nothing without a stored series, or with a malformed one', () => {
    const { id, results } = iperf3Trial(new ResultsBuilder(), T0);
    expect(cpuTimeSeriesCharts([results])).toEqual([]);
    expect(cpuTimeSeriesCharts([withExplain(results, id, [{ host: 'a', role: 'client', cpuSeries: { start: T0, t: [1, 2], cpus: [{ cpu: 0, idle: [1] }] } }])])).toEqual([]);
    expect(cpuTimeSeriesCharts([withExplain(results, id, [{ host: 'a', role: 'client', cpuSeries: 'x' }])])).toEqual([]);
  });
});
