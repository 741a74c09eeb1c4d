import type { Labels, Sample } from '@netbench/plugin-api';
import { bootstrapMedianDiff, DEFAULT_RESAMPLES } from './bootstrap.js';
import type { ComparedSide, ComparisonRow, RowHead } from './comparison-row.js';
import { betterDirection } from './direction.js';
import { type Distribution, distributionPercentile, histogramDistribution, mergeDistributions } from './histogram-distribution.js';
import { mannWhitneyU } from './mann-whitney.js';
import { median } from './quantile.js';
import { type ReplicateUnit, replicateUnit, replicateValues } from './replicates.js';
import { describeSeries, POSITION_LABELS, type SeriesKeyOptions, seriesKey, seriesLabels } from './series-key.js';
import { type SmallSampleNotes, smallSampleNotes, smallSampleRow } from './small-sample.js';
import { timeFactor } from './units.js';
import { verdict } from './verdict.js';

export interface CompareOptions extends SeriesKeyOptions {
  /** Significance level (default 0.05); bootstrap intervals have confidence 1 − alpha. */
  readonly alpha?: number;
  /** Seed of every bootstrap (default 1): the same data always give the same intervals. */
  readonly seed?: number;
  /** Bootstrap resamples (default 2000). */
  readonly resamples?: number;
  /** Percentiles compared for metrics that carry histograms (default 50, 90, 99). */
  readonly percentiles?: readonly number[];
  /** Only these metrics (default all). */
  readonly metrics?: readonly string[];
  /** Compare run-level bookkeeping too (`phase_duration`: how long netbench's phases took). Default false. */
  readonly bookkeeping?: boolean;
}

/** Samples about netbench itself rather than the network (run-level, no trial). */
export function isBookkeeping(sample: Sample): boolean {
  return sample.trialId === undefined || BOOKKEEPING.has(sample.metric);
}

const BOOKKEEPING = new Set(['phase_duration']);

export type { ComparedSide, ComparisonRow, RowHead } from './comparison-row.js';
export { describeSeries } from './series-key.js';
export type { Verdict } from './verdict.js';

export interface Comparison {
  readonly alpha: number;
  readonly seed: number;
  readonly resamples: number;
  readonly rows: readonly ComparisonRow[];
  /** Series only one side has. */
  readonly baselineOnly: readonly string[];
  readonly candidateOnly: readonly string[];
  readonly warnings: readonly string[];
  /** Rows with one run (replicate) on a side, not tested: said once above the table too. */
  readonly unrepeated: number;
  /**
   * Rows no test could decide: too few values (or too many ties) for
   * Mann–Whitney to reach alpha, and Welch's test on logarithms could not
   * stand in (a value ≤ 0, no spread, a distribution row). Said once, with
   * the smallest p and why, not per row.
   */
  readonly tooFew: SmallSampleNotes['tooFew'];
  /**
   * Single-number rows with too few values a side for Mann–Whitney (3 and 3)
   * that Welch's t-test on the logarithms decided: said once, naming the
   * test's assumption and the rows.
   */
  readonly welch: SmallSampleNotes['welch'];
  /** Run-level bookkeeping samples (phase durations) left out, per side. */
  readonly leftOut: { readonly baseline: number; readonly candidate: number };
}

interface Series {
  readonly metric: string;
  readonly unit: string;
  readonly labels: Labels;
  readonly baseline: Sample[];
  readonly candidate: Sample[];
  /** Per-interval samples: one trial's intervals, compared as a distribution. */
  intervals: boolean;
}

/**
 * Compare two sets of samples series by series (metric, unit and the
 * labels that say what was measured). Every replicate (a run; a repetition
 * when both sides are the same runs) gives one value per row, and the tests
 * see only those: medians, Mann–Whitney U (Welch's t-test on logarithms for
 * 2 or 3 a side), a bootstrap interval of the difference of medians.
 * Metrics with histograms: each replicate's p50/p90/p99, never the mean.
 * See docs/results.md for which test decides.
 */
export function compareSamples(baseline: readonly Sample[], candidate: readonly Sample[], options: CompareOptions = {}): Comparison {
  const alpha = options.alpha ?? 0.05;
  const seed = options.seed ?? 1;
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const series = new Map<string, Series>();
  const leftOut = { baseline: 0, candidate: 0 };
  const add = (sample: Sample, side: 'baseline' | 'candidate') => {
    if (options.metrics && !options.metrics.includes(sample.metric)) return;
    if (!options.bookkeeping && !options.metrics?.includes(sample.metric) && isBookkeeping(sample)) {
      leftOut[side] += 1;
      return;
    }
    const key = seriesKey(sample.metric, sample.unit, sample.labels, options);
    let entry = series.get(key);
    if (!entry) {
      entry = { metric: sample.metric, unit: sample.unit, labels: seriesLabels(sample.labels, options), baseline: [], candidate: [], intervals: false };
      series.set(key, entry);
    }
    if (!entry.intervals && hasPosition(sample)) entry.intervals = true;
    entry[side].push(sample);
  };
  for (const s of baseline) add(s, 'baseline');
  for (const s of candidate) add(s, 'candidate');

  const rows: ComparisonRow[] = [];
  const baselineOnly: string[] = [];
  const candidateOnly: string[] = [];
  const warnings: string[] = [];
  for (const [key, s] of series) {
    const name = describeSeries(s);
    if (s.candidate.length === 0) {
      baselineOnly.push(name);
      continue;
    }
    if (s.baseline.length === 0) {
      candidateOnly.push(name);
      continue;
    }
    const pooled = s.intervals ? 0 : pooledWithinRun(s);
    if (pooled)
      warnings.push(`${name}: ${pooled} samples of one run and repetition share the same labels and are summarised by their median (use --match LABEL to tell them apart)`);
    const settings = { alpha, resamples, seed: rowSeed(seed, key) };
    const hasHistograms = s.baseline.some((x) => x.histogram) && s.candidate.some((x) => x.histogram);
    if (hasHistograms) rows.push(...percentileRows(s, options.percentiles ?? [50, 90, 99], settings));
    else rows.push(scalarRow(s, settings));
  }
  // One run on a side; rows whose side mixes places say their own reason.
  const unrepeated = rows.filter((r) => r.verdict === 'no repetitions' && r.note?.startsWith('not tested: one') === true).length;
  return { alpha, seed, resamples, rows, baselineOnly, candidateOnly, warnings, unrepeated, ...smallSampleNotes(rows, alpha), leftOut };
}

function hasPosition(sample: Sample): boolean {
  for (const key of POSITION_LABELS) if (sample.labels[key] !== undefined) return true;
  return false;
}

interface RowSettings {
  readonly alpha: number;
  readonly resamples: number;
  readonly seed: number;
}

function scalarRow(s: Series, settings: RowSettings): ComparisonRow {
  const unit = replicateUnit(s.baseline, s.candidate);
  // A repetition's value: the median of its samples (a trial's intervals, streams that share a key).
  const summarise = (group: readonly Sample[]) => median(group.map((x) => x.value));
  const a = replicateValues(s.baseline, unit, summarise);
  const b = replicateValues(s.candidate, unit, summarise);
  const head = rowHead(s, s.intervals ? 'intervals' : 'value', s.unit, side(a, s.baseline.length), side(b, s.candidate.length), unit);
  return decide(head, a, b, settings, 'difference of medians', mixedPlaces(s));
}

/**
 * Histogram-bearing series, one row per percentile: each replicate's value
 * is the percentile of its own histograms (a run's: the median of its
 * repetitions' percentiles), and the test runs on those values. The
 * observations within one histogram are packets or transactions of one
 * condition, never replicates.
 */
function percentileRows(s: Series, percentiles: readonly number[], settings: RowSettings): ComparisonRow[] {
  const unit = replicateUnit(s.baseline, s.candidate);
  const dists = new Map<Sample, Distribution>();
  const distOf = (x: Sample) => {
    let d = dists.get(x);
    if (!d) dists.set(x, (d = histogramDistribution([x.histogram!])));
    return d;
  };
  const withHistogram = (side: readonly Sample[]) => side.filter((x) => x.histogram);
  const baseline = withHistogram(s.baseline);
  const candidate = withHistogram(s.candidate);
  const first = distOf(baseline[0]!);
  // Everything in the sample's unit when it is a time unit, else in the histograms' unit.
  const valueUnit = timeFactor(first.unit, s.unit) === undefined ? first.unit : s.unit;
  const observations = (side: readonly Sample[]) => side.reduce((n, x) => n + distOf(x).total, 0);
  return percentiles.map((p, i) => {
    const summarise = (group: readonly Sample[]) => {
      const d = mergeDistributions(group.map(distOf));
      return distributionPercentile(d.values, d.counts, d.total, p) * (timeFactor(d.unit, valueUnit) ?? 1);
    };
    const a = replicateValues(baseline, unit, summarise);
    const b = replicateValues(candidate, unit, summarise);
    const head = rowHead(s, `p${p}`, valueUnit, side(a, observations(baseline)), side(b, observations(candidate)), unit);
    return decide(head, a, b, { ...settings, seed: settings.seed + i }, `difference of the median p${p} of the ${unit}s`, mixedPlaces(s));
  });
}

const side = (values: readonly number[], observations: number): ComparedSide => ({ value: median(values), n: values.length, observations });

/**
 * Decide a row on its replicate values alone: one replicate a side is not
 * tested; Mann–Whitney where the counts let it reach alpha; else Welch's
 * t-test on logarithms may stand in (small-sample.ts). The bootstrap interval
 * of the difference of medians is reported beside it.
 */
function decide(head: RowHead, a: readonly number[], b: readonly number[], settings: RowSettings, of: string, mixed?: string): ComparisonRow {
  if (mixed) return { ...head, significant: null, decidedBy: null, verdict: 'no repetitions', note: mixed };
  if (a.length < 2 || b.length < 2) {
    return { ...head, significant: null, decidedBy: null, verdict: 'no repetitions', note: notTested(head.replicates, a.length, b.length) };
  }
  const mw = mannWhitneyU(a, b);
  const ci = { ...bootstrapMedianDiff(a, b, { ...settings, confidence: 1 - settings.alpha }), of };
  if (a.every((x) => x === a[0]) && b.every((x) => x === a[0])) {
    return { ...head, significant: false, decidedBy: null, verdict: 'no significant difference', mannWhitney: mw, bootstrap: ci, note: 'every value is the same' };
  }
  // Too few values (or too many ties) for the rank test: Welch on logarithms may stand in.
  if (mw.minP > settings.alpha) return smallSampleRow({ ...head, mannWhitney: mw, bootstrap: ci }, a, b, settings.alpha);
  const significant = mw.p < settings.alpha;
  return {
    ...head,
    significant,
    decidedBy: 'mann-whitney',
    verdict: verdict(significant, head.delta, head.direction),
    mannWhitney: mw,
    bootstrap: ci,
    note: `Mann–Whitney on ${a.length} and ${b.length} ${head.replicates}s' values`,
  };
}

/** Where a run ran: runs of one side that differ in these are different conditions, not replicates. */
const PLACE_LABELS = ['client_cloud', 'server_cloud', 'client_region', 'server_region', 'client_zone', 'server_zone', 'client_machine_type', 'server_machine_type'];

/**
 * `not tested: the baseline's runs differ in client_zone (a, b)` when one
 * side's samples come from different places: compare matches series across
 * zones on purpose (zone A against zone B), but within one side those runs
 * are different conditions, never replicates of one.
 */
function mixedPlaces(s: Series): string | undefined {
  for (const [name, side] of [
    ['baseline', s.baseline],
    ['candidate', s.candidate],
  ] as const) {
    for (const key of PLACE_LABELS) {
      const values = [
        ...new Set(
          side
            .map((x) => x.labels[key])
            .filter((v) => v !== undefined)
            .map(String),
        ),
      ];
      if (values.length > 1) return `not tested: the ${name}'s samples differ in ${key} (${values.slice(0, 3).join(', ')}${values.length > 3 ? ', …' : ''}); narrow the selection`;
    }
  }
  return undefined;
}

/** `not tested: one run each`, `not tested: one run in the baseline`. */
export function notTested(unit: ReplicateUnit, a: number, b: number): string {
  if (a < 2 && b < 2) return `not tested: one ${unit} each`;
  return `not tested: one ${unit} in the ${a < 2 ? 'baseline' : 'candidate'}`;
}

function rowHead(s: Series, statistic: string, unit: string, baseline: ComparedSide, candidate: ComparedSide, replicates: ReplicateUnit): RowHead {
  const delta = candidate.value - baseline.value;
  const deltaPct = baseline.value === 0 ? (delta === 0 ? 0 : Number.POSITIVE_INFINITY * Math.sign(delta)) : (delta / Math.abs(baseline.value)) * 100;
  const direction = betterDirection(s.metric, s.unit);
  return { metric: s.metric, statistic, unit, labels: s.labels, replicates, baseline, candidate, delta, deltaPct, ...(direction ? { direction } : {}) };
}

/** Samples of one run and repetition that share a series key (so are not really repetitions). */
function pooledWithinRun(s: Series): number {
  let worst = 0;
  for (const side of [s.baseline, s.candidate]) {
    const counts = new Map<string, number>();
    for (const x of side) {
      const k = `${x.runId}\u0000${String(x.labels['repetition'] ?? '')}`;
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    for (const n of counts.values()) worst = Math.max(worst, n > 1 ? n : 0);
  }
  return worst;
}

/** A per-row seed from the comparison's seed and the series key (FNV-1a), so rows do not share random streams. */
function rowSeed(seed: number, key: string): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < key.length; i += 1) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}
