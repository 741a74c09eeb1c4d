import type { Scalar } from '@netbench/plugin-api';
import { ChartIds } from './chart-id.js';
import { mergeHistograms } from './histogram-buckets.js';
import { configNames, groupBy, type Observation, observe, runNames } from './observations.js';
import type { ChartInput, ChartOptions, SweepChart, SweepSeries } from './types.js';

/** Percentiles drawn per probe, as the "What a trip" study plots them. */
export const INTERVAL_PERCENTILES = [50, 90, 99] as const;
/**
 * Parameters that vary with the interval only to keep a trial's length (count × interval), or
 * are the interval itself (`mps`, messages per second): not a configuration of their own.
 */
const LENGTH_KEYS = new Set(['interval', 'mps', 'count', 'duration', 'tool', 'test']);
// Round-trip histograms: ping's `Average Latency`, irtt's `rtt_mean`, any `*latency*`/`rtt*`; not one-way delays.
const ROUND_TRIP_RE = /latency|^rtt/i;

/**
 * Seconds between probes: the `interval` parameter (ping, irtt), or 1 / `mps`
 * (sockperf's `--mps`, messages per second; `max` is no interval).
 */
function probeInterval(o: Observation): number | undefined {
  const interval = o.config.get('interval');
  if (typeof interval === 'number') return interval;
  const mps = o.config.get('mps');
  return typeof mps === 'number' && mps > 0 ? 1 / mps : undefined;
}
const MS_PER: Readonly<Record<string, number>> = { ns: 1e-6, us: 1e-3, ms: 1 };

/**
 * Latency against probe interval (the study's "latency vs how often you
 * probe"): for every tool whose trials vary an `interval` parameter (ping
 * `-i`, irtt `-i`, a matrix of intervals) or a message rate (sockperf
 * `--mps`, drawn at 1 / mps) and whose samples carry a round-trip histogram
 * (not one labelled `latency_kind: one-way`, sockperf's RTT/2 estimate), one line per tool, direction and percentile (p50,
 * p90, p99 of every packet, histograms merged over repetitions), interval on
 * a log axis. All tools share one chart so ping and irtt line up.
 */
export function intervalSweepCharts(results: ChartInput, options: ChartOptions = {}, ids = new ChartIds()): SweepChart[] {
  const maxSeries = options.maxSeries ?? 12;
  const names = runNames(results);
  const probes = observe(results).filter(
    (o) =>
      o.sample.histogram !== undefined &&
      !o.perStream &&
      o.sample.labels['series'] === undefined &&
      probeInterval(o) !== undefined &&
      ROUND_TRIP_RE.test(o.sample.metric) &&
      o.sample.labels['latency_kind'] !== 'one-way' &&
      (!options.metrics || options.metrics.includes(o.sample.metric)),
  );
  // One histogram metric per tool (the first it reports), so a tool never counts twice.
  const metricOf = new Map<string, string>();
  for (const o of probes) if (!metricOf.has(toolOf(o))) metricOf.set(toolOf(o), o.sample.metric);
  const chosen = probes.filter((o) => metricOf.get(toolOf(o)) === o.sample.metric);
  const lines = [...groupBy(chosen, (o) => JSON.stringify([o.runIndex, ...[...o.config].filter(([key]) => !LENGTH_KEYS.has(key) || key === 'tool' || key === 'test')])).values()];
  const swept = lines.filter((line) => new Set(line.map(probeInterval)).size >= 2);
  if (swept.length === 0 || swept.length * INTERVAL_PERCENTILES.length > maxSeries) return [];
  const labels = lineLabels(swept);
  const comparing = new Set(swept.map((line) => line[0]!.runIndex)).size > 1;
  const series: SweepSeries[] = swept.flatMap((line, i) => {
    const head = line[0]!;
    const name = [toolOf(head), labels[i], comparing ? names[head.runIndex] : ''].filter(Boolean).join(' · ');
    const byInterval = [...groupBy(line, (o) => String(probeInterval(o))).values()]
      .map((members) => {
        const merged = mergeHistograms(members.map((o) => o.sample.histogram!));
        return { x: probeInterval(members[0]!)!, merged, scale: MS_PER[merged.unit] ?? 1 };
      })
      .filter((p) => p.merged.count > 0)
      .sort((a, b) => a.x - b.x);
    return INTERVAL_PERCENTILES.map((p) => ({
      name: `${name} p${p}`,
      runId: head.run.runId,
      points: byInterval.map((point) => ({ x: point.x, mean: point.merged.percentile(p) * point.scale, n: point.merged.count })),
    }));
  });
  const tools = [...new Set(swept.map((line) => toolOf(line[0]!)))];
  const used = tools.map((tool) => `${tool}: ${metricOf.get(tool)}`).join('; ');
  return [
    {
      kind: 'sweep',
      id: ids.next('sweep', 'latency', 'by', 'probe', 'interval'),
      title: `Latency by probe interval (${tools.join(', ')})`,
      subtitle: 'ms; percentiles of every round trip, log interval axis',
      notes: [
        `Per tool the round-trip histogram of every packet (${used}), merged over repetitions; p50, p90 and p99 per interval.`,
        'Probing more often keeps caches, CPU frequency and interrupt moderation warm: latency measured at 1 s intervals is not latency at 1 ms.',
        'n at each point is the number of packets.',
      ],
      runIds: [...new Set(series.map((s) => s.runId))],
      metric: [...new Set(metricOf.values())].join(', '),
      param: 'interval',
      x: { label: 'probe interval', unit: 's', scale: 'log' },
      y: { label: 'round-trip latency', unit: 'ms', scale: 'linear' },
      better: 'lower',
      confidence: { level: options.confidenceLevel ?? 0.95, method: 'student-t' },
      series,
    },
  ];
}

function toolOf(o: Observation): string {
  return String(o.config.get('tool') ?? '');
}

/** What tells a tool's lines apart (direction, other parameters), per tool; empty for a tool's only line. */
function lineLabels(lines: readonly (readonly Observation[])[]): string[] {
  const labels = lines.map(() => '');
  const byTool = groupBy(
    lines.map((line, index) => ({ line, index })),
    ({ line }) => toolOf(line[0]!),
  );
  for (const members of byTool.values()) {
    if (members.length < 2) continue;
    const configs = members.map(({ line }) => new Map([...line[0]!.config].filter(([key]) => !LENGTH_KEYS.has(key))) as ReadonlyMap<string, Scalar>);
    configNames(configs).forEach((label, i) => {
      labels[members[i]!.index] = label;
    });
  }
  return labels;
}
