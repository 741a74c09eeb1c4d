import type { Scalar } from '@netbench/plugin-api';
import { ChartIds } from './chart-id.js';
import { fewNote, intervalMethod, meanInterval } from './confidence-interval.js';
import { KNEE_SHARE, latencyKnee } from './latency-knee.js';
import { betterOf, declaredMetrics, headlineMetric } from './metric-roles.js';
import { configNames, groupBy, type Observation, observe, runNames, valuesOf } from './observations.js';
import type { ChartInput, ChartOptions, SweepChart, SweepPoint } from './types.js';

// Units of the parameters the built-in tools sweep; the rest are plain numbers.
const PARAM_UNITS: Readonly<Record<string, string>> = {
  size: 'bytes',
  requestSize: 'bytes',
  responseSize: 'bytes',
  sendSize: 'bytes',
  length: 'bytes',
  mss: 'bytes',
  socketBuffer: 'bytes',
  window: 'bytes',
  block_size: 'bytes',
  interval: 's',
  duration: 's',
  omit: 's',
  intervalWaitMs: 'ms',
  rate: 'requests/s',
};
// When several parameters vary, the x axis is the first of these, else the one with most values.
const X_PREFERENCE = ['rate', 'streams', 'connections', 'size', 'requestSize', 'sendSize', 'length', 'mss', 'interval', 'intervalWaitMs', 'window', 'socketBuffer'];
const FIXED_KEYS = new Set(['tool', 'test']);

/**
 * Line charts of a headline metric against a numeric trial parameter that
 * varies across a tool's trials (streams, message size, MSS, interval):
 * one chart per tool, test and metric; lines per value of the other varying
 * fields (direction, other parameters) and per run; points are means with
 * percentile-bootstrap confidence intervals where there are repetitions. A parameter
 * that moves in lockstep with the x parameter (a zipped matrix axis) is
 * named in the axis label instead of splitting lines.
 */
export function sweepCharts(results: ChartInput, options: ChartOptions = {}, ids = new ChartIds()): SweepChart[] {
  const level = options.confidenceLevel ?? 0.95;
  const maxSeries = options.maxSeries ?? 12;
  const names = runNames(results);
  const observations = observe(results).filter((o) =>
    options.metrics ? options.metrics.includes(o.sample.metric) : headlineMetric(o.sample.metric, declaredMetrics(results)) !== undefined,
  );
  const charts: SweepChart[] = [];
  const byMetric = groupBy(observations, (o) => JSON.stringify([o.config.get('tool') ?? '', o.config.get('test') ?? '', o.sample.metric, o.sample.unit]));
  for (const whole of byMetric.values()) {
    const param = sweepParam(whole);
    if (!param) continue;
    // Too many lines for one chart (wrk's connections × size × keep-alive × scheme: 16): one chart per value of a field.
    for (const { group, facet } of facets(whole, param, maxSeries)) {
      const companions = lockstep(group, param);
      const seriesKeys = [...new Set(group.flatMap((o) => [...o.config.keys()]))].filter((k) => k !== param && !FIXED_KEYS.has(k) && !companions.includes(k) && k !== facet?.key);
      const comparing = new Set(group.map((o) => o.runIndex)).size > 1;
      const lines = [...groupBy(group, (o) => JSON.stringify([o.runIndex, ...seriesKeys.map((k) => o.config.get(k) ?? null)])).values()];
      if (lines.length > maxSeries) continue;
      const lineConfigs = lines.map((l) => new Map(seriesKeys.flatMap((k) => (l[0]!.config.has(k) ? [[k, l[0]!.config.get(k)!] as [string, Scalar]] : []))));
      const labels = configNames(lineConfigs);
      const first = group[0]!;
      const tool = String(first.config.get('tool') ?? '');
      const test = String(first.config.get('test') ?? '');
      const series = lines.map((line, i) => {
        const head = line[0]!;
        const label = lineConfigs[i]!.size > 0 ? labels[i]! : '';
        const name = [label, comparing ? names[head.runIndex]! : ''].filter(Boolean).join(' · ') || `${tool} ${test}`;
        const linePoints = points(line, param, level);
        // Latency against offered load (HTTP constant-rate runs): mark where queueing takes over.
        const knee =
          param === 'rate' && headlineMetric(first.sample.metric, declaredMetrics(results))?.role === 'latency'
            ? latencyKnee(linePoints, achievedRates(observations, head, param, seriesKeys, level))
            : undefined;
        return { name, runId: head.run.runId, points: linePoints, ...(knee ? { knee } : {}) };
      });
      const knees = series.flatMap((s) => (s.knee ? [`${s.name}: ${s.knee.x}`] : []));
      // Across runs a parameter may differ once per run: one point per line is no sweep.
      if (!series.some((s) => s.points.length >= 2)) continue;
      const xs = series.flatMap((s) => s.points.map((p) => p.x));
      const unit = PARAM_UNITS[param] ?? '';
      charts.push({
        kind: 'sweep',
        id: ids.next('sweep', first.sample.metric, tool, 'by', param, ...(facet ? [facet.key, String(facet.value)] : [])),
        title: `${first.sample.metric} by ${param} (${tool} ${test})${facet ? ` · ${facet.key}=${String(facet.value)}` : ''}`,
        // The unit is the value axis's, in the magnitude it is drawn in (1.5 s, not the samples' ms): not repeated here.
        subtitle: `mean ± ${Math.round(level * 100)}% confidence interval where repeated`,
        notes: [
          `x: trial parameter "${param}"${companions.length ? ` (varied together with ${companions.join(', ')})` : ''}.`,
          `Points are means over repetitions; intervals: percentile bootstrap of the mean (fixed seed), inside the values' range, where n ≥ 2.`,
          ...fewNote(
            series.flatMap((s) => s.points.map((p) => p.n)),
            level,
          ),
          ...(knees.length > 0
            ? [
                `Knee (the highest offered rate the server kept up with, achieved ≥ ${Math.round(KNEE_SHARE * 100)} % of offered, before a higher one fell behind): ${knees.join('; ')} requests/s.`,
              ]
            : []),
        ],
        runIds: [...new Set(series.map((s) => s.runId))],
        metric: first.sample.metric,
        param,
        x: { label: companions.length ? `${param} (= ${companions.join(', ')})` : param, unit, scale: logScale(xs) ? 'log' : 'linear' },
        y: { label: first.sample.metric, unit: first.sample.unit, scale: 'linear' },
        better: betterOf(first.sample.metric, declaredMetrics(results)),
        confidence: { level, method: intervalMethod(group.map((o) => o.sample.value)) },
        series,
      });
    }
  }
  return charts;
}

/**
 * The group as it is when its lines fit one chart; else split by the field
 * with the most values (at most 8) whose every part fits — object size
 * before keep-alive or scheme, so a chart holds the lines one reads together.
 */
function facets(group: readonly Observation[], param: string, maxSeries: number): { group: readonly Observation[]; facet?: { key: string; value: Scalar } }[] {
  const lineCount = (members: readonly Observation[], without?: string) => {
    const keys = [...new Set(members.flatMap((o) => [...o.config.keys()]))].filter((k) => k !== param && !FIXED_KEYS.has(k) && k !== without);
    return new Set(members.map((o) => JSON.stringify([o.runIndex, ...keys.map((k) => o.config.get(k) ?? null)]))).size;
  };
  if (lineCount(group) <= maxSeries) return [{ group }];
  const keys = [...new Set(group.flatMap((o) => [...o.config.keys()]))].filter((k) => k !== param && !FIXED_KEYS.has(k));
  const split = keys
    .map((key) => ({ key, parts: groupBy(group, (o) => JSON.stringify(o.config.get(key) ?? null)) }))
    .filter(({ key, parts }) => parts.size > 1 && parts.size <= 8 && [...parts.values()].every((part) => lineCount(part, key) <= maxSeries))
    .sort((a, b) => b.parts.size - a.parts.size)[0];
  if (!split) return [];
  return [...split.parts.values()]
    .map((part) => ({ group: part, facet: { key: split.key, value: part[0]!.config.get(split.key) ?? '—' } }))
    .sort((a, b) =>
      typeof a.facet.value === 'number' && typeof b.facet.value === 'number' ? a.facet.value - b.facet.value : String(a.facet.value).localeCompare(String(b.facet.value)),
    );
}

/** The achieved request rate (a `requests/s` metric of the same run, tool, test and line) at each offered rate. */
function achievedRates(observations: readonly Observation[], head: Observation, param: string, seriesKeys: readonly string[], level: number): Map<number, number> {
  const same = (o: Observation) =>
    o.runIndex === head.runIndex &&
    o.sample.unit === 'requests/s' &&
    ['tool', 'test', ...seriesKeys].every((k) => JSON.stringify(o.config.get(k) ?? null) === JSON.stringify(head.config.get(k) ?? null));
  return new Map(points(observations.filter(same), param, level).map((p) => [p.x, p.mean]));
}

/** The numeric parameter with two or more values in the group, by preference. */
function sweepParam(group: readonly Observation[]): string | undefined {
  const values = new Map<string, Set<number>>();
  const nonNumeric = new Set<string>();
  for (const o of group) {
    for (const [key, value] of o.config) {
      if (FIXED_KEYS.has(key) || key === 'direction') continue;
      if (typeof value !== 'number') {
        nonNumeric.add(key);
        continue;
      }
      let set = values.get(key);
      if (!set) values.set(key, (set = new Set()));
      set.add(value);
    }
  }
  const candidates = [...values].filter(([key, set]) => set.size > 1 && !nonNumeric.has(key));
  if (candidates.length === 0) return undefined;
  const preferred = X_PREFERENCE.find((key) => candidates.some(([k]) => k === key));
  return preferred ?? candidates.sort((a, b) => b[1].size - a[1].size)[0]![0];
}

/** Other parameters whose value is determined by the x parameter's (zipped axes). */
function lockstep(group: readonly Observation[], param: string): string[] {
  const keys = new Set(group.flatMap((o) => [...o.config.keys()]));
  return [...keys].filter((key) => {
    if (key === param || FIXED_KEYS.has(key) || key === 'direction') return false;
    const seen = new Map<string, string>();
    const all = new Set<string>();
    for (const o of group) {
      const x = String(o.config.get(param));
      const v = JSON.stringify(o.config.get(key) ?? null);
      all.add(v);
      if (seen.has(x) && seen.get(x) !== v) return false;
      seen.set(x, v);
    }
    return all.size > 1;
  });
}

function points(line: readonly Observation[], param: string, level: number): SweepPoint[] {
  return [...groupBy(line, (o) => String(o.config.get(param))).values()]
    .map((members) => {
      const { values } = valuesOf(members);
      const { mean, n, low, high } = meanInterval(values, level);
      return { x: Number(members[0]!.config.get(param)), mean, n, ...(low !== undefined && high !== undefined ? { low, high } : {}) };
    })
    .sort((a, b) => a.x - b.x);
}

function logScale(xs: readonly number[]): boolean {
  const min = Math.min(...xs);
  return min > 0 && Math.max(...xs) / min >= 16;
}
