import { valueScale } from './bar-charts.js';
import { ChartIds } from './chart-id.js';
import { fewNote, INTERVAL_METHOD, intervalNote, meanInterval } from './confidence-interval.js';
import { configNames, groupBy, type Observation, observe, runNames } from './observations.js';
import { pathOverheadNote, pathRatios, plainPathFirst } from './path-overhead.js';
import type { Bar, BarChart, BarSeries, ChartInput, ChartOptions } from './types.js';

const RR_METRIC_RE = /^([A-Z0-9]+_RR)_(Latency_(p50|p90|p99)|Transaction_Rate)$/;
const PERCENTILES = ['p50', 'p90', 'p99'] as const;

/**
 * The latency chart of netperf request/response tests (TCP_RR, UDP_RR, …):
 * per configuration, p50/p90/p99 as netperf reported them (its
 * P50/P90/P99_LATENCY outputs) when the samples have them; otherwise the
 * mean latency derived from the transaction rate (1 / tps: the mean time of
 * one transaction with one in flight), labelled as derived. Drawn for one
 * run too (one bar per percentile); repetitions give means with intervals.
 * Comparing runs, only configurations at least two runs measured are shown.
 */
export function rrLatencyCharts(results: ChartInput, options: ChartOptions = {}, ids = new ChartIds()): BarChart[] {
  if (options.kinds && !options.kinds.includes('bar')) return [];
  const level = options.confidenceLevel ?? 0.95;
  const maxCategories = options.maxCategories ?? 30;
  const names = runNames(results);
  const comparing = results.length > 1;
  const rr = observe(results).filter((o) => !o.perStream && o.sample.labels['interval_end'] === undefined && RR_METRIC_RE.test(o.sample.metric));
  const charts: BarChart[] = [];
  for (const [test, group] of groupBy(rr, (o) => RR_METRIC_RE.exec(o.sample.metric)![1]!)) {
    if (options.metrics && !group.some((o) => options.metrics!.includes(o.sample.metric))) continue;
    const measured = group.some((o) => o.sample.metric.startsWith(`${test}_Latency_`));
    let configs = [...groupBy(group, (o) => o.configKey).values()];
    // Comparing runs: only configurations at least two runs measured (as the other bar charts).
    if (comparing) configs = configs.filter((c) => new Set(c.map((o) => o.runIndex)).size > 1);
    if (configs.length === 0) continue;
    if (configs.length > maxCategories) continue;
    configs = plainPathFirst(configs, (c) => c[0]!.config);
    const categories = configNames(configs.map((c) => c[0]!.config));
    const kinds: readonly (readonly [string, (o: Observation) => number | undefined])[] = measured
      ? PERCENTILES.map((p) => [p, (o: Observation) => (o.sample.metric === `${test}_Latency_${p}` ? toMicroseconds(o.sample.value, o.sample.unit) : undefined)] as const)
      : [['mean (1/tps, derived)', (o: Observation) => (o.sample.metric === `${test}_Transaction_Rate` && o.sample.value > 0 ? 1e6 / o.sample.value : undefined)] as const];
    const series: BarSeries[] = [];
    for (const [label, metricOf] of kinds) {
      results.forEach(({ run }, runIndex) => {
        const bars = configs.map((members) =>
          bar(
            members
              .filter((o) => o.runIndex === runIndex)
              .map(metricOf)
              .filter((v): v is number => v !== undefined),
            level,
          ),
        );
        if (bars.some((b) => b !== null)) series.push({ name: comparing ? `${label} · ${names[runIndex]}` : label, runId: run.runId, bars });
      });
    }
    if (series.length === 0) continue;
    const ns = series.flatMap((s) => s.bars.map((b) => b?.n ?? 0));
    charts.push({
      kind: 'bar',
      id: ids.next('bar', `${test} latency`),
      title: `${test} latency (netperf)`,
      subtitle: measured ? 'p50, p90 and p99 as netperf measured them' : 'mean latency derived from the transaction rate (1 / tps), not measured',
      notes: [
        measured
          ? `Percentiles from netperf's latency outputs (P50_LATENCY, P90_LATENCY, P99_LATENCY), per transaction.`
          : `netperf printed no latency percentiles: each bar is 1 / transaction rate, the mean time of one request/response with one transaction in flight. It hides the tail; ask netperf for P50_LATENCY,P90_LATENCY,P99_LATENCY to measure it.`,
        'Bars: mean over repetitions of the same host pair and parameters; different pairs are separate bars.',
        intervalNote(
          level,
          'repetitions',
          ns.filter((n) => n > 0),
        ),
        ...fewNote(ns, level),
        ...pathOverheadNote(
          series.map((s) => {
            const ratios = pathRatios(
              configs.map((c) => c[0]!.config),
              s.bars,
            );
            return ratios && `${s.name} ${ratios}`;
          }),
        ),
      ],
      runIds: [...new Set(series.map((s) => s.runId))],
      metric: `${test}_Latency`,
      x: { label: 'configuration', categories },
      y: { label: measured ? 'latency' : 'mean latency (derived)', unit: 'us', scale: valueScale(series.flatMap((s) => s.bars)) },
      better: 'lower',
      confidence: { level, method: INTERVAL_METHOD },
      series,
    });
  }
  return charts;
}

function bar(values: readonly number[], level: number): Bar | null {
  if (values.length === 0) return null;
  const { mean, n, stddev, low, high, noInterval } = meanInterval(values, level);
  return {
    mean,
    n,
    basis: 'repetitions',
    ...(stddev !== undefined ? { stddev } : {}),
    ...(low !== undefined && high !== undefined ? { low, high } : {}),
    ...(noInterval ? { noInterval } : {}),
  };
}

function toMicroseconds(value: number, unit: string): number {
  return unit === 'ms' ? value * 1000 : unit === 's' ? value * 1e6 : value;
}
