import { ChartIds } from './chart-id.js';
import { fewNote, intervalMethod, intervalNote, meanInterval } from './confidence-interval.js';
import { betterOf, declaredMetrics, headlineMetric } from './metric-roles.js';
import { configNames, groupBy, type Observation, observe, runNames, valuesOf } from './observations.js';
import { pathOverheadNote, pathRatios, plainPathFirst } from './path-overhead.js';
import type { Bar, BarChart, ChartInput, ChartOptions } from './types.js';

const DEFAULT_MAX_CATEGORIES = 30;

/**
 * Bars of mean ± confidence interval (percentile bootstrap) per
 * configuration — host pair, direction and parameters: different pairs are
 * separate bars, never pooled — one series per run. Drawn for a headline
 * metric when runs are compared (the configurations at least two runs
 * measured), or for one run when some configuration has several values
 * (repetitions, or the streams of one trial) or several host pairs were
 * measured (per-pair bars). Bars of very different sizes get a log axis.
 */
export function barCharts(results: ChartInput, options: ChartOptions = {}, ids = new ChartIds()): BarChart[] {
  const level = options.confidenceLevel ?? 0.95;
  const maxCategories = options.maxCategories ?? DEFAULT_MAX_CATEGORIES;
  const names = runNames(results);
  const observations = observe(results).filter((o) =>
    options.metrics ? options.metrics.includes(o.sample.metric) : headlineMetric(o.sample.metric, declaredMetrics(results)) !== undefined,
  );
  const charts: BarChart[] = [];
  for (const group of groupBy(observations, (o) => JSON.stringify([o.sample.metric, o.sample.unit])).values()) {
    const first = group[0]!;
    const byConfig = groupBy(group, (o) => o.configKey);
    let configs = [...byConfig.values()];
    const comparing = results.length > 1;
    if (comparing) configs = configs.filter((c) => new Set(c.map((o) => o.runIndex)).size > 1);
    // Ordered by name (forward before reverse, 64 before 1024), not by which trial ran first: a randomised run order must not reorder the bars;
    // then each configuration's plain path before its tunnels.
    const named = plainPathFirst(
      configNames(configs.map((c) => c[0]!.config))
        .map((name, i) => ({ name, config: configs[i]! }))
        .sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true })),
      (n) => n.config[0]!.config,
    );
    configs = named.map((n) => n.config);
    const bars = configs.map((c) => barsPerRun(c, results.length, level));
    const repeated = bars.some((perRun) => perRun.some((bar) => bar !== null && bar.n > 1));
    const pairs = new Set(configs.map((c) => c[0]!.config.get('pair')));
    if (configs.length === 0 || configs.length > maxCategories || (!comparing && !repeated && pairs.size < 2)) continue;
    const categories = named.map((n) => n.name);
    const series = results
      .map(({ run }, runIndex) => ({ name: names[runIndex]!, runId: run.runId, bars: bars.map((perRun) => perRun[runIndex] ?? null) }))
      .filter((s) => s.bars.some((b) => b !== null));
    const overhead = pathOverheadNote(
      results.map((_, runIndex) => {
        const ratios = pathRatios(
          configs.map((c) => c[0]!.config),
          bars.map((perRun) => perRun[runIndex] ?? null),
        );
        return ratios && comparing ? `${names[runIndex]}: ${ratios}` : ratios;
      }),
    );
    const basis = new Set(
      bars
        .flat()
        .filter((b): b is Bar => b !== null)
        .map((b) => b.basis),
    );
    charts.push({
      kind: 'bar',
      id: ids.next('bar', first.sample.metric),
      title: `${first.sample.metric}${toolsOf(group)}${comparing ? ' by run' : ''}`,
      subtitle: `mean ± ${Math.round(level * 100)}% confidence interval (percentile bootstrap), ${first.sample.unit}`,
      notes: [
        intervalNote(
          level,
          [...basis].join(' and '),
          bars
            .flat()
            .map((b) => b?.n ?? 0)
            .filter((n) => n > 0),
        ),
        ...(pairs.size > 1 ? ['Each host pair is its own bar: different pairs are never repetitions.'] : []),
        ...(comparing ? ['Only configurations measured by at least two runs are shown.'] : []),
        ...fewNote(
          bars.flat().map((b) => b?.n ?? 0),
          level,
        ),
        ...overhead,
      ],
      runIds: series.map((s) => s.runId),
      metric: first.sample.metric,
      x: { label: 'configuration', categories },
      y: { label: first.sample.metric, unit: first.sample.unit, scale: valueScale(bars.flat()) },
      better: betterOf(first.sample.metric, declaredMetrics(results)),
      confidence: { level, method: intervalMethod(group.map((o) => o.sample.value)) },
      series,
    });
  }
  return charts;
}

function barsPerRun(observations: readonly Observation[], runCount: number, level: number): (Bar | null)[] {
  const perRun: (Bar | null)[] = Array.from({ length: runCount }, () => null);
  for (const [runIndex, group] of groupBy(observations, (o) => String(o.runIndex))) {
    const { values, basis } = valuesOf(group);
    const { mean, n, stddev, low, high, noInterval } = meanInterval(values, level);
    perRun[Number(runIndex)] = {
      mean,
      n,
      basis,
      ...(stddev !== undefined ? { stddev } : {}),
      ...(low !== undefined && high !== undefined ? { low, high } : {}),
      ...(noInterval ? { noInterval } : {}),
    };
  }
  return perRun;
}

/** ` (ping)` when one tool measured every value of the chart. */
function toolsOf(group: readonly Observation[]): string {
  const tools = new Set(group.map((o) => String(o.config.get('tool') ?? '')));
  const [tool] = tools;
  return tools.size === 1 && tool ? ` (${tool})` : '';
}

/** Log when the bars span more than two orders of magnitude (a 1 ms bar next to 117 ms), else linear from 0. */
export function valueScale(bars: readonly (Bar | null)[]): 'linear' | 'log' {
  const means = bars.filter((b): b is Bar => b !== null).map((b) => b.mean);
  const positive = means.filter((m) => m > 0);
  if (positive.length < 2 || positive.length < means.length) return 'linear';
  return Math.max(...positive) / Math.min(...positive) >= LOG_RATIO ? 'log' : 'linear';
}

const LOG_RATIO = 100;
