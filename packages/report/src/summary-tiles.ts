// `@netbench/report/summary-tiles`: a run's headline numbers per
// configuration, drawn first on the app's run page and in the HTML report
// (stat tiles, as Grafana's stat panels), so nobody reads them off eight
// single-bar charts. Browser-safe: units only, no Node built-ins.
import type { ChartSpec, ShownTrial } from '@netbench/results';
import { metricName } from './metric-names.js';
import { varyingParams } from './trial-rows.js';
import { displayUnit, formatNumber, joinUnit } from './units.js';

export interface TileStat {
  readonly label: string;
  readonly value: string;
}

export interface SummaryTile {
  /** The trials it sums up (repetitions of one configuration are one tile). */
  readonly trialIds: readonly string[];
  /** The spec's benchmark name and the parameters that tell it apart (`rrul-deep`, `http connections=100`). */
  readonly title: string;
  /** `client → server`, and how many repetitions. */
  readonly subtitle: string;
  /** The headline first (goodput, throughput, rate), then latency and loss. */
  readonly stats: readonly TileStat[];
  /** `succeeded`, else what went wrong with some of its trials. */
  readonly status: string;
}

/** More configurations than this: the summary table says it better than a wall of tiles. */
export const MAX_TILES = 16;

function quantity(value: number, unit: string): string {
  const { symbol, factor } = displayUnit(unit, value);
  return joinUnit(formatNumber(value * factor), symbol);
}

const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / values.length;

/** A stat over the repetitions: the mean, with its range when they differ. */
function over(values: readonly number[], unit: string): string {
  if (values.length === 1) return quantity(values[0]!, unit);
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  return `${quantity(mean(values), unit)} (${quantity(lo, unit)}–${quantity(hi, unit)})`;
}

function stats(trials: readonly ShownTrial[]): TileStat[] {
  const ok = trials.filter((t) => t.status === 'succeeded');
  if (ok.length === 0) return [];
  const out: TileStat[] = [];
  const add = (label: string, pick: (t: ShownTrial) => { value: number; unit: string } | undefined) => {
    const picked = ok.map(pick).filter((q): q is { value: number; unit: string } => q !== undefined);
    if (picked.length > 0)
      out.push({
        label,
        value: over(
          picked.map((q) => q.value),
          picked[0]!.unit,
        ),
      });
  };
  const load = ok[0]!.summary.load;
  if (load) {
    const probe = load.probe ? `${load.probe} ` : '';
    add('goodput', (t) => t.summary.load?.goodput);
    add(`${probe}idle p50`, (t) => t.summary.load?.idle);
    add(`${probe}loaded p50`, (t) => t.summary.load?.loaded);
    add('latency increase', (t) => t.summary.load?.increase);
    if (ok.some((t) => t.summary.load?.responsiveness)) {
      const rpm = ok.flatMap((t) => (t.summary.load?.responsiveness ? [t.summary.load.responsiveness.value] : []));
      out.push({ label: 'responsiveness', value: `${formatNumber(Math.round(mean(rpm)))} RPM` });
    }
    return out;
  }
  const headline = ok[0]!.summary.headline;
  if (headline) add(metricName(headline.metric), (t) => (t.summary.headline?.metric === headline.metric ? t.summary.headline : undefined));
  for (const k of ['p50', 'p99'] as const)
    add(`latency ${k}`, (t) => (t.summary.latency?.[k] !== undefined ? { value: t.summary.latency[k]!, unit: t.summary.latency.unit } : undefined));
  add('loss', (t) => t.summary.loss);
  return out;
}

/**
 * One tile per configuration (repetitions of one trial together), in the
 * trials' order; undefined when there are more than MAX_TILES (the table
 * leads then) or no trial has anything to show.
 */
export function summaryTiles(trials: readonly ShownTrial[]): SummaryTile[] | undefined {
  // The parameters that tell apart the trials of one benchmark: differently named benchmarks are told apart by their names.
  const byBenchmark = new Map<string, ShownTrial[]>();
  for (const t of trials) byBenchmark.set(t.benchmark, [...(byBenchmark.get(t.benchmark) ?? []), t]);
  const texts = new Map<ShownTrial, string>();
  for (const group of byBenchmark.values()) {
    const of = varyingParams(group, ['repetition']);
    for (const t of group) texts.set(t, of(t));
  }
  const params = (t: ShownTrial) => texts.get(t) ?? '';
  const groups = new Map<string, ShownTrial[]>();
  for (const t of trials) {
    const key = `${t.benchmark}\u0000${t.test}\u0000${t.client}\u0000${t.server}\u0000${params(t)}\u0000${t.tunnel ?? ''}`;
    groups.set(key, [...(groups.get(key) ?? []), t]);
  }
  if (groups.size > MAX_TILES) return undefined;
  const tiles = [...groups.values()].map((group): SummaryTile => {
    const first = group[0]!;
    const named = first.benchmark && first.benchmark !== first.tool ? first.benchmark : `${first.tool} ${first.test}`;
    const failed = group.filter((t) => t.status !== 'succeeded');
    return {
      trialIds: group.map((t) => t.id),
      title: [named.includes(first.test) ? named : `${named} ${first.test}`, params(first)].filter(Boolean).join(' · '),
      subtitle: [
        first.client === 'unknown' ? '' : `${first.client} → ${first.server}${first.tunnel && first.tunnel !== 'none' ? ` via ${first.tunnel}` : ''}`,
        group.length > 1 ? `${group.length} repetitions` : first.id,
      ]
        .filter(Boolean)
        .join(' · '),
      stats: stats(group),
      status: failed.length === 0 ? 'succeeded' : failed.length === group.length ? first.status : `${failed.length} of ${group.length} ${failed[0]!.status}`,
    };
  });
  return tiles.some((t) => t.stats.length > 0) ? tiles : undefined;
}

/**
 * The charts of a run page in two parts: the ones to read first, and the
 * detail folded under them — per-flow series of latency-under-load trials
 * (their "all scaled" plot shows them together) and, when the tiles give
 * the numbers, one run's bar charts of three configurations or fewer (a
 * bar each says no more than a tile; bars comparing runs stay).
 */
export function splitCharts(charts: readonly ChartSpec[], tiles: boolean): { readonly first: readonly ChartSpec[]; readonly more: readonly ChartSpec[] } {
  const detail = (c: ChartSpec) => c.detail === true || (tiles && c.kind === 'bar' && c.series.length === 1 && c.x.categories.length <= 3);
  return { first: charts.filter((c) => !detail(c)), more: charts.filter(detail) };
}
