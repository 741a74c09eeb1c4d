import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { StoreError } from './store-error.js';
import { defaultStorePath } from './store-path.js';
import { withStore } from './with-store.js';

export interface StudyRun {
  readonly runId: string;
  /** `i/N` from the run's `shard` label; absent for a run of the whole plan. */
  readonly shard?: string;
  readonly status: string;
  readonly trials: number;
  readonly samples: number;
}

/** One study: the stored runs of its shards read as one. */
export interface StudySummary {
  readonly study: string;
  readonly db: string;
  readonly runs: readonly StudyRun[];
  /** Shards the runs say the study has, and those with no stored run yet. */
  readonly shards: { readonly count: number; readonly missing: readonly number[] };
  /** Distinct trials over all runs (shards keep the unsharded plan's trial ids). */
  readonly trials: number;
  /** Trials stored by more than one run (a shard run again): compare and report see each run's samples. */
  readonly repeated: readonly string[];
  readonly samples: number;
}

const SHARD_RE = /^(\d+)\/(\d+)$/;

/**
 * `netbench results study ID`: every stored run labelled `study=ID` (the
 * shards of `netbench plan --shards`), which shards are in, and the trial set
 * they make together. `compare`/`report` select the same runs with `study=ID`.
 */
export async function studyResults(options: { readonly study: string; readonly db?: string }): Promise<StudySummary> {
  const db = resolve(options.db ?? defaultStorePath());
  if (!existsSync(db)) throw new StoreError(`no results store at ${db}`, db);
  return withStore(
    db,
    (store) => {
      const { runs } = store.list({ labels: [['study', options.study]], limit: 0 });
      if (runs.length === 0) throw new StoreError(`no run of study ${options.study} in the store ${db} (shards carry the label study=ID)`, db);
      const trialRuns = new Map<string, number>();
      let count = 0;
      const seen = new Set<number>();
      const studyRuns = runs.map((summary): StudyRun => {
        const { run } = store.load(store.resolve(summary.runId));
        for (const trial of run.trials) trialRuns.set(trial.id, (trialRuns.get(trial.id) ?? 0) + 1);
        const shard = typeof run.labels?.['shard'] === 'string' ? run.labels['shard'] : undefined;
        const match = shard ? SHARD_RE.exec(shard) : null;
        if (match) {
          seen.add(Number(match[1]));
          count = Math.max(count, Number(match[2]));
        }
        return { runId: summary.runId, ...(shard ? { shard } : {}), status: summary.status, trials: summary.trials, samples: summary.samples };
      });
      return {
        study: options.study,
        db,
        runs: studyRuns,
        shards: { count, missing: Array.from({ length: count }, (_, i) => i).filter((i) => !seen.has(i)) },
        trials: trialRuns.size,
        repeated: [...trialRuns]
          .filter(([, n]) => n > 1)
          .map(([id]) => id)
          .sort(),
        samples: studyRuns.reduce((sum, r) => sum + r.samples, 0),
      };
    },
    { readOnly: true },
  );
}
