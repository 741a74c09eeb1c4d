import type { EncodedHistogram, HostRecord, Labels, RunRecord, RunResults, Sample, TrialRecord } from '@netbench/plugin-api';
import { LatencyHistogram } from '@netbench/plugin-api';
import { median } from '../stats/quantile.js';
import { timeFactor } from '../stats/units.js';
import { loadHeadline } from './load-headline.js';
import { errorSummary, observationsFor, type TrialSummary, trialSummary } from './trial-summary.js';
import { withStore } from './with-store.js';

/** One metric of a trial: its value, or the median and range when the trial has several (streams, intervals). */
export interface ShownMetric {
  readonly metric: string;
  readonly unit: string;
  /**
   * What tells samples of one name apart (`stdev` of wrk's per-thread
   * `stat`s, `status` of HTTP's `error_kind`s): each is its own row, never
   * a median of a mean, a stdev and a max, or of a total and its parts.
   */
  readonly qualifier?: string;
  /** Samples of this metric in the trial. */
  readonly n: number;
  /** The value (median when n > 1). */
  readonly value: number;
  readonly min: number;
  readonly max: number;
  /** Percentiles of the merged histograms, in `unit` when it is a time unit (else in `percentileUnit`). */
  readonly p50?: number;
  readonly p90?: number;
  readonly p99?: number;
  readonly p999?: number;
  readonly percentileUnit?: string;
  /** Observations behind the percentiles. */
  readonly observations?: number;
  /**
   * Every sample only carries a histogram: PKB publishes netperf's printed
   * histogram as a sample of value 0, so `value` is no measurement (show the
   * percentiles, not `0 µs`).
   */
  readonly histogramOnly?: boolean;
}

export interface ShownTrial {
  readonly id: string;
  readonly tool: string;
  readonly test: string;
  readonly benchmark: string;
  readonly status: string;
  readonly error?: string;
  readonly params: Readonly<Record<string, string | number | boolean>>;
  /** Host names of the pair (`unknown` for imported files). */
  readonly client: string;
  readonly server: string;
  readonly metrics: readonly ShownMetric[];
  /** The one-line summary: headline, latency percentiles, loss (a synchronized trial's: of its aggregates). */
  readonly summary: TrialSummary;
  /** A synchronized-flows trial (mesh, fan-in, load): how many flows ran at once (its aggregates' `flow_count`). */
  readonly flows?: number;
  /** The `tunnel` label of its samples when the run has tunnels (`none`: the plain path; docs/tunnels.md). */
  readonly tunnel?: string;
  /** The tunnel's type (`wireguard`, `ipsec`, `openvpn`: the `tunnel_type` label), beside its name. */
  readonly tunnelType?: string;
  /** What limited it (docs/explain.md): the findings (empty: no limit found) and what could not be read; absent when counters were off. */
  readonly explain?: {
    readonly diagnoses: NonNullable<TrialRecord['explain']>['diagnoses'];
    readonly notes?: readonly string[];
    readonly toolCounters?: NonNullable<TrialRecord['explain']>['toolCounters'];
  };
}

export interface RunShow {
  readonly db: string;
  readonly run: {
    readonly runId: string;
    readonly name: string;
    readonly status: string;
    readonly startedAt: string;
    readonly finishedAt: string;
    readonly owner: string;
    readonly runDir: string;
    readonly specFile?: string;
    readonly netbenchVersion: string;
    readonly hosts: readonly HostRecord[];
    readonly errors: readonly string[];
    readonly labels: Labels;
    readonly samples: number;
  };
  readonly trials: readonly ShownTrial[];
  /** Run-level samples (phase durations). */
  readonly runMetrics: readonly ShownMetric[];
}

export interface ShowResultOptions {
  readonly db?: string;
  /** Run id, prefix, suffix, `latest~N` or run folder. */
  readonly run: string;
}

/** `netbench results show`: a stored run summarised per trial. */
export async function showResult(options: ShowResultOptions): Promise<RunShow> {
  return withStore(options.db, (store) => runShow(store.path, store.load(store.resolve(options.run))), { create: false, readOnly: true });
}

/** `showResult` of a run already loaded from the store at `db` (a caller that also charts it reads it once). */
export function runShow(db: string, { run, samples }: RunResults): RunShow {
  return { db, run: runHeader(run, samples.length), trials: trialsOf(run, samples), runMetrics: summarise(samples.filter((s) => s.trialId === undefined)) };
}

function runHeader(run: RunRecord, samples: number): RunShow['run'] {
  return {
    runId: run.runId,
    name: run.name,
    status: run.status,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    owner: run.owner,
    runDir: run.runDir,
    ...(run.specFile !== undefined ? { specFile: run.specFile } : {}),
    netbenchVersion: run.netbenchVersion,
    hosts: run.hosts,
    errors: run.errors,
    labels: run.labels,
    samples,
  };
}

function trialsOf(run: RunRecord, samples: readonly Sample[]): ShownTrial[] {
  const byTrial = new Map<string, Sample[]>();
  for (const sample of samples) {
    if (sample.trialId === undefined) continue;
    const list = byTrial.get(sample.trialId) ?? [];
    list.push(sample);
    byTrial.set(sample.trialId, list);
  }
  return run.trials.map((t) => {
    const own = byTrial.get(t.id) ?? [];
    const metrics = summarise(own);
    // A synchronized trial reads as its aggregates (the flows' sum or mean), not a median of flows and aggregate.
    const aggregates = own.filter((s) => s.labels.flow === 'aggregate');
    const flows = Math.max(0, ...aggregates.map((s) => Number(s.labels.flow_count) || 0));
    const tunnel = own.find((s) => s.labels.tunnel !== undefined)?.labels.tunnel;
    const tunnelType = own.find((s) => s.labels.tunnel_type !== undefined)?.labels.tunnel_type;
    return {
      id: t.id,
      tool: t.tool,
      test: t.test,
      benchmark: t.benchmarkName,
      status: t.status,
      ...(t.error !== undefined ? { error: t.error } : {}),
      params: { ...t.cell, ...t.params },
      client: t.client,
      server: t.server,
      metrics,
      summary: summaryOf(aggregates.length > 0 ? summarise(aggregates) : metrics, run, t.tool, own),
      ...(flows > 0 ? { flows } : {}),
      ...(tunnel !== undefined ? { tunnel: String(tunnel) } : {}),
      ...(tunnelType !== undefined ? { tunnelType: String(tunnelType) } : {}),
      ...(t.explain
        ? {
            explain: {
              diagnoses: t.explain.diagnoses,
              ...(t.explain.notes ? { notes: t.explain.notes } : {}),
              ...(t.explain.toolCounters ? { toolCounters: t.explain.toolCounters } : {}),
            },
          }
        : {}),
    };
  });
}

/**
 * A latency-under-load trial is its total goodput and its probe's idle →
 * loaded latency: the percentiles are the loaded ones (what the load did),
 * never the probes' idle and loaded packets pooled, and not a per-flow rate.
 */
function summaryOf(metrics: readonly ShownMetric[], run: RunRecord, tool: string, samples: readonly Sample[]): TrialSummary {
  const load = loadHeadline(samples);
  if (!load) {
    const errors = errorSummary(samples);
    return { ...trialSummary(metrics, run.toolMetrics?.[tool], run.metrics), ...(errors ? { errors } : {}) };
  }
  const loaded = (p: string) => samples.find((s) => s.labels.flow === 'summary' && s.metric === `latency_loaded_${p}` && s.labels.probe === load.probe);
  const n = loaded('p50')?.labels.probe_count;
  // The same rule as every other trial's: a percentile needs enough probes above it.
  const enough = (key: 'p50' | 'p90' | 'p99') => typeof n !== 'number' || n >= observationsFor(key);
  const p50 = loaded('p50');
  const [p90, p99] = [enough('p90') ? loaded('p90') : undefined, enough('p99') ? loaded('p99') : undefined];
  return {
    ...(load.goodput ? { headline: load.goodput } : {}),
    ...(p50
      ? {
          latency: {
            unit: p50.unit,
            p50: p50.value,
            ...(p90 ? { p90: p90.value } : {}),
            ...(p99 ? { p99: p99.value } : {}),
            source: 'tool' as const,
            metric: `${load.probe} latency under load`,
            ...(typeof n === 'number' ? { n } : {}),
          },
        }
      : {}),
    load,
  };
}

/** Group by metric and unit, in order of first appearance. */
/** Labels under which a tool reports several figures of one metric name (see `ShownMetric.qualifier`). */
const QUALIFIER_LABELS = ['stat', 'error_kind'] as const;

function qualifierOf(sample: Sample): string | undefined {
  for (const key of QUALIFIER_LABELS) {
    const value = sample.labels[key];
    if (value !== undefined) return String(value);
  }
  return undefined;
}

export function summarise(samples: readonly Sample[]): ShownMetric[] {
  // Metric → unit (and qualifier) → samples: no key string per sample (a 100,000-interval trial is one group).
  const groups: Sample[][] = [];
  const byMetric = new Map<string, Map<string, Sample[]>>();
  for (const sample of samples) {
    let units = byMetric.get(sample.metric);
    if (!units) byMetric.set(sample.metric, (units = new Map()));
    const qualifier = qualifierOf(sample);
    const unitKey = qualifier === undefined ? sample.unit : `${sample.unit}\u0000${qualifier}`;
    let list = units.get(unitKey);
    if (!list) {
      units.set(unitKey, (list = []));
      groups.push(list);
    }
    list.push(sample);
  }
  return groups.map((group) => {
    const first = group[0]!;
    const values = new Array<number>(group.length);
    const histograms: EncodedHistogram[] = [];
    // A loop, not Math.min(...values): spreading ~125,000 arguments overflows the stack.
    let min = Infinity;
    let max = -Infinity;
    for (let i = 0; i < group.length; i++) {
      const { value: v, histogram } = group[i]!;
      values[i] = v;
      if (v < min) min = v;
      if (v > max) max = v;
      if (histogram) histograms.push(histogram);
    }
    const qualifier = qualifierOf(first);
    const shown: ShownMetric = {
      metric: first.metric,
      unit: first.unit,
      ...(qualifier !== undefined ? { qualifier } : {}),
      n: group.length,
      value: group.length === 1 ? first.value : median(values),
      min,
      max,
    };
    if (histograms.length === 0) return shown;
    const merged = LatencyHistogram.merge(histograms);
    const factor = timeFactor(merged.unit, first.unit);
    const at = (p: number) => merged.percentile(p) * (factor ?? 1);
    const histogramOnly = histograms.length === group.length && min === 0 && max === 0;
    return {
      ...shown,
      p50: at(50),
      p90: at(90),
      p99: at(99),
      p999: at(99.9),
      ...(factor === undefined ? { percentileUnit: merged.unit } : {}),
      observations: merged.count,
      ...(histogramOnly ? { histogramOnly } : {}),
    };
  });
}
