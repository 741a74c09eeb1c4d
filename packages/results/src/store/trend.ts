import type { Labels, Sample } from '@netbench/plugin-api';
import { NetbenchError } from '@netbench/plugin-api';
import { CHANGE_DEFAULTS, type ChangeOptions, type ChangeVerdict, detectChange } from '../stats/change-point.js';
import { betterDirection, type Direction } from '../stats/direction.js';
import { median } from '../stats/quantile.js';
import { type SeriesKeyOptions, seriesKey, seriesLabels } from '../stats/series-key.js';
import type { LabelCondition } from './list-runs.js';
import { withStore } from './with-store.js';

/** Exit code of `results trend --fail-on-regression` when the newest run regressed. */
export const REGRESSION_EXIT_CODE = 7;

export interface TrendOptions extends ChangeOptions, SeriesKeyOptions {
  readonly db?: string;
  readonly metric: string;
  /** Label conditions every sample must meet. */
  readonly where?: readonly LabelCondition[];
  /** Which way is better; default from the metric's unit and name. */
  readonly direction?: Direction;
  /** Fail when the newest run is a regression of at least this many percent. */
  readonly failOnRegressionPct?: number;
}

export type TrendFlag = 'regression' | 'improvement' | 'change';

export interface TrendPoint {
  readonly runId: string;
  readonly startedAt: string;
  /** Median of the run's samples of the series (repetitions). */
  readonly value: number;
  readonly n: number;
  /** Against the previous points; absent while there are too few. */
  readonly change?: ChangeVerdict;
  readonly flag: TrendFlag | null;
}

export interface Trend {
  readonly db: string;
  readonly metric: string;
  readonly unit: string;
  /** The labels that identify the series. */
  readonly labels: Labels;
  readonly direction: Direction | null;
  readonly window: number;
  readonly threshold: number;
  readonly points: readonly TrendPoint[];
  /** The newest run is a regression beyond `failOnRegressionPct`. */
  readonly failed: boolean;
  readonly summary: string;
}

/**
 * `netbench results trend`: one metric over time, one point per run, each
 * judged against the median and MAD of the runs before it (robust z-score).
 * The selection must make one series; when it makes several, the error
 * names the labels that differ.
 */
export async function resultsTrend(options: TrendOptions): Promise<Trend> {
  const window = options.window ?? CHANGE_DEFAULTS.window;
  const threshold = options.threshold ?? CHANGE_DEFAULTS.threshold;
  return withStore(
    options.db,
    (store) => {
      const runs = store.select(options.where ?? [], options.metric);
      const where = (options.where ?? []).map(([k, v]) => `${k}=${v}`).join(' ');
      if (runs.length === 0) throw new NetbenchError(`no stored samples of ${options.metric}${where ? ` with ${where}` : ''} (in ${store.path})`);
      const keyOptions = { ...options, ignore: [...(options.ignore ?? []), ...(options.where ?? []).map(([k]) => k)] };
      const series = groupSeries(
        runs.flatMap((r) => r.samples),
        keyOptions,
      );
      if (series.size > 1)
        throw new NetbenchError(
          ambiguity(
            options.metric,
            [...series.values()].map((s) => s.labels),
          ),
        );
      const [only] = series.values();
      const { unit, labels } = only!;
      const direction = options.direction ?? betterDirection(options.metric, unit) ?? null;
      if (options.failOnRegressionPct !== undefined && direction === null) {
        throw new NetbenchError(`cannot tell whether higher or lower ${options.metric} (${unit}) is better: pass --direction lower|higher`);
      }
      const values: number[] = [];
      const points: TrendPoint[] = runs.map((run) => {
        const samples = run.samples.filter((s) => s.unit === unit);
        const value = median(samples.map((s) => s.value));
        const change = detectChange(values, value, { ...options, window, threshold });
        values.push(value);
        const flag: TrendFlag | null = !change?.changed ? null : direction === null ? 'change' : change.z < 0 === (direction === 'lower') ? 'improvement' : 'regression';
        return { runId: run.ref.runId, startedAt: new Date(run.ref.startedAt).toISOString(), value, n: samples.length, ...(change ? { change } : {}), flag };
      });
      const latest = points.at(-1)!;
      const pct = options.failOnRegressionPct;
      const failed = pct !== undefined && latest.flag === 'regression' && Math.abs(latest.change!.deltaPct) >= pct;
      return { db: store.path, metric: options.metric, unit, labels, direction, window, threshold, points, failed, summary: summarise(latest, points.length, options, failed) };
    },
    { create: false, readOnly: true },
  );
}

function groupSeries(samples: readonly Sample[], options: SeriesKeyOptions): Map<string, { unit: string; labels: Labels }> {
  const series = new Map<string, { unit: string; labels: Labels }>();
  for (const s of samples) {
    const key = seriesKey(s.metric, s.unit, s.labels, options);
    if (!series.has(key)) series.set(key, { unit: s.unit, labels: seriesLabels(s.labels, options) });
  }
  return series;
}

/** "matches 2 series that differ in direction (forward, reverse): add --where …". */
function ambiguity(metric: string, sets: readonly Labels[]): string {
  const keys = new Set(sets.flatMap((l) => Object.keys(l)));
  const differing = [...keys].filter((k) => new Set(sets.map((l) => String(l[k] ?? '∅'))).size > 1);
  const detail = differing
    .slice(0, 4)
    .map((k) => `${k} (${[...new Set(sets.map((l) => String(l[k] ?? '∅')))].slice(0, 4).join(', ')})`)
    .join('; ');
  return `${metric} matches ${sets.length} series that differ in ${detail}: narrow it with --where ${differing[0] ?? 'key'}=VALUE`;
}

function summarise(latest: TrendPoint, count: number, options: TrendOptions, failed: boolean): string {
  if (!latest.change) return `${count} runs: too few before the newest to judge it (needs ${options.minHistory ?? CHANGE_DEFAULTS.minHistory})`;
  const pct = `${latest.change.deltaPct >= 0 ? '+' : ''}${latest.change.deltaPct.toFixed(1)}%`;
  const what = latest.flag === null ? 'within noise' : latest.flag;
  const gate =
    options.failOnRegressionPct === undefined
      ? ''
      : failed
        ? ` — fails --fail-on-regression ${options.failOnRegressionPct}%`
        : ` — passes --fail-on-regression ${options.failOnRegressionPct}%`;
  return `newest run ${latest.runId}: ${pct} against the median of the previous ${latest.change.history} (robust z ${latest.change.z.toFixed(1)}): ${what}${gate}`;
}
