import type { RunRecord, Sample } from '@netbench/plugin-api';
import { NetbenchError } from '@netbench/plugin-api';
import { type CompareOptions, type Comparison, compareSamples } from '../stats/compare.js';
import { type ConfigurationCounters, compareCounters, type SideTrial } from '../stats/compare-counters.js';
import { type Difference, runDifferences } from '../stats/run-differences.js';
import type { LabelCondition } from './list-runs.js';
import type { ResultsStore } from './results-store.js';
import { withStore } from './with-store.js';

/** One side of a comparison: stored runs, or every stored sample with these labels. */
export type ComparisonSelection = { readonly runs: readonly string[] } | { readonly labels: readonly LabelCondition[] };

export interface CompareResultsOptions extends CompareOptions {
  readonly db?: string;
  readonly baseline: ComparisonSelection;
  readonly candidate: ComparisonSelection;
}

export interface SideSummary {
  /** How the side was chosen: run ids, or `key=value …`. */
  readonly selection: string;
  readonly runs: readonly string[];
  readonly samples: number;
  /** When the side's first run started (ISO time): the header says when the baseline is the newer side. */
  readonly startedAt?: string;
}

export interface ComparisonResult extends Comparison {
  readonly db: string;
  readonly baseline: SideSummary;
  readonly candidate: SideSummary;
  /** What the sides differ in besides the numbers: spec fields, hosts, zones, machine types, versions, kernel. */
  readonly differences: readonly Difference[];
  /** Per configuration both sides measured: each side's key host counters (one value per trial) and what limited its trials (docs/explain.md). */
  readonly counters: readonly ConfigurationCounters[];
}

/** `netbench compare`: two runs (or two label selections) metric by metric, with significance. */
export async function compareResults(options: CompareResultsOptions): Promise<ComparisonResult> {
  return withStore(
    options.db,
    (store) => {
      const baseline = select(store, options.baseline);
      const candidate = select(store, options.candidate);
      // The keys that tell the sides apart are not part of what was measured.
      const selectionKeys = [options.baseline, options.candidate].flatMap((s) => ('labels' in s ? s.labels.map(([k]) => k) : []));
      const comparison = compareSamples(baseline.samples, candidate.samples, { ...options, ignore: [...(options.ignore ?? []), ...selectionKeys] });
      const differences = runDifferences(baseline, candidate);
      const counters = compareCounters(sideTrials(store, baseline), sideTrials(store, candidate));
      return { db: store.path, ...comparison, baseline: baseline.summary, candidate: candidate.summary, differences, counters };
    },
    { create: false, readOnly: true },
  );
}

function select(store: ResultsStore, selection: ComparisonSelection): { samples: Sample[]; runs: RunRecord[]; summary: SideSummary } {
  if ('runs' in selection) {
    const refs = selection.runs.map((ref) => store.resolve(ref));
    const loaded = refs.map((ref) => store.load(ref));
    const samples = loaded.flatMap((r) => r.samples);
    return {
      samples,
      runs: loaded.map((r) => r.run),
      summary: { selection: refs.map((r) => r.runId).join(' '), runs: refs.map((r) => r.runId), samples: samples.length, ...firstStart(refs) },
    };
  }
  if (selection.labels.length === 0) throw new NetbenchError('a label selection needs at least one key=value');
  const runs = store.select(selection.labels);
  const text = selection.labels.map(([k, v]) => `${k}=${v}`).join(' ');
  if (runs.length === 0) throw new NetbenchError(`no stored samples have ${text} (in ${store.path})`);
  const samples = runs.flatMap((r) => r.samples);
  return { samples, runs: [], summary: { selection: text, runs: runs.map((r) => r.ref.runId), samples: samples.length, ...firstStart(runs.map((r) => r.ref)) } };
}

/** The trials behind a side's samples (a label selection: only the trials it selected samples of), with their runs. */
function sideTrials(store: ResultsStore, side: { samples: readonly Sample[]; runs: readonly RunRecord[]; summary: SideSummary }): SideTrial[] {
  const runs = side.runs.length > 0 ? side.runs : side.summary.runs.map((id) => store.load(store.resolve(id)).run);
  const selected = new Set(side.samples.map((s) => `${s.runId}\u0000${s.trialId ?? ''}`));
  return runs.flatMap((run) => run.trials.filter((t) => selected.has(`${run.runId}\u0000${t.id}`)).map((trial) => ({ runId: run.runId, trial })));
}

function firstStart(refs: readonly { readonly startedAt: number }[]): { startedAt?: string } {
  const first = Math.min(...refs.map((r) => r.startedAt));
  return Number.isFinite(first) ? { startedAt: new Date(first).toISOString() } : {};
}
