import type { EncodedHistogram } from '@netbench/plugin-api';
import { type MergedHistogram, mergeHistograms } from './histogram-buckets.js';
import { configNames, groupBy, type Observation, observe, runNames } from './observations.js';
import type { ChartInput, ChartOptions } from './types.js';

export interface LatencySeries {
  readonly name: string;
  readonly runId: string;
  readonly histogram: MergedHistogram;
}

export interface LatencyGroup {
  readonly tool: string;
  readonly metric: string;
  readonly unit: EncodedHistogram['unit'];
  readonly runIds: readonly string[];
  readonly series: readonly LatencySeries[];
}

/**
 * Samples that carry a latency histogram, grouped per tool and metric, one
 * series per configuration and run (histograms merged over repetitions;
 * over streams when a trial has no trial-level histogram). Groups with more
 * series than `maxSeries` are left out: a CDF of dozens of lines says nothing.
 */
export function latencyGroups(results: ChartInput, options: ChartOptions = {}): LatencyGroup[] {
  const maxSeries = options.maxSeries ?? 12;
  const names = runNames(results);
  const withHistogram = observe(results).filter((o) => o.sample.histogram !== undefined && (!options.metrics || options.metrics.includes(o.sample.metric)));
  const groups: LatencyGroup[] = [];
  const byChart = groupBy(withHistogram, (o) => JSON.stringify([o.config.get('tool') ?? '', o.sample.metric, o.sample.histogram!.unit]));
  for (const chartGroup of byChart.values()) {
    const bySeries = [...groupBy(chartGroup, (o) => `${o.configKey}\u0000${o.runIndex}`).values()];
    if (bySeries.length > maxSeries) continue;
    const configLabels = configNames(bySeries.map((s) => s[0]!.config));
    const comparing = new Set(chartGroup.map((o) => o.runIndex)).size > 1;
    const series = bySeries
      .map((members, i) => {
        const first = members[0]!;
        const label = configLabels[i]!;
        return {
          name: comparing ? `${label} · ${names[first.runIndex]}` : label,
          runId: first.run.runId,
          histogram: mergeHistograms(preferred(members).map((o) => o.sample.histogram!)),
        };
      })
      .filter((s) => s.histogram.count > 0);
    if (series.length === 0) continue;
    const first = chartGroup[0]!;
    groups.push({
      tool: String(first.config.get('tool') ?? ''),
      metric: first.sample.metric,
      unit: first.sample.histogram!.unit,
      runIds: [...new Set(series.map((s) => s.runId))],
      series,
    });
  }
  return groups;
}

function preferred(members: readonly Observation[]): readonly Observation[] {
  const trialLevel = members.filter((o) => !o.perStream);
  return trialLevel.length > 0 ? trialLevel : members;
}
