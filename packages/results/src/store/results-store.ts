import type { RunRecord, RunResults, Sample } from '@netbench/plugin-api';
import { storeRows } from '@netbench/plugin-api/publisher-kit';
import { deleteRunRows } from './delete-runs.js';
import { type IngestResult, ingestRows } from './ingest.js';
import { labelKeys, type StoredLabelKey } from './label-keys.js';
import { type LabelCondition, listRuns, type RunFilter, type RunList } from './list-runs.js';
import { type ReadSamplesOptions, readSamples } from './read-samples.js';
import { type RunHeadline, runHeadlines } from './run-headlines.js';
import { resolveRunRef, type StoredRunRef } from './run-ref.js';
import type { DatabaseSync } from './sqlite.js';
import { storeError } from './store-error.js';

/** Samples of the runs a label selection matched, run by run, oldest first. */
export interface SelectedRun {
  readonly ref: StoredRunRef;
  readonly samples: Sample[];
}

/**
 * An open results store. Every write is one transaction (`BEGIN
 * IMMEDIATE`, so concurrent writers queue on the busy timeout instead of
 * deadlocking); a failed write rolls back and leaves what was stored intact.
 * Errors are `StoreError`s that name the file. Close it when done.
 */
export class ResultsStore {
  constructor(
    private readonly db: DatabaseSync,
    readonly path: string,
  ) {}

  /** Store a run (`results.json`'s body), replacing a stored run of the same id. */
  ingest(results: RunResults): IngestResult {
    const rows = storeRows(results);
    return this.write(`storing run ${results.run.runId}`, () => ingestRows(this.db, rows));
  }

  /** Replace a stored run's record (status, phases, errors as they ended), leaving its samples. */
  updateRecord(record: RunRecord): boolean {
    const { specText: _spec, ...rest } = record;
    return this.write(`updating run ${record.runId}`, () => {
      const result = this.db
        .prepare('UPDATE runs SET record = ?, status = ?, finished_at = ? WHERE run_id = ?')
        .run(JSON.stringify(rest), record.status, Date.parse(record.finishedAt) || 0, record.runId);
      return Number(result.changes) > 0;
    });
  }

  list(filter: RunFilter = {}): RunList {
    return this.read('listing runs', () => listRuns(this.db, filter));
  }

  /** Each listed run's headline number (`runHeadlines`: the median of its primary metric). */
  headlines(runIds: readonly string[]): Map<string, RunHeadline> {
    return this.read('reading run headlines', () => runHeadlines(this.db, runIds));
  }

  /** Resolve what a user typed (id, prefix, suffix, `latest~N`, run folder). */
  resolve(ref: string): StoredRunRef {
    return this.read(`finding run ${ref}`, () => resolveRunRef(this.db, this.path, ref));
  }

  /** A stored run exactly as its `results.json` held it. */
  load(ref: StoredRunRef): RunResults {
    return this.read(`reading run ${ref.runId}`, () => {
      const row = this.db.prepare('SELECT record, spec_text FROM runs WHERE run_pk = ?').get(ref.runPk) as { record: string; spec_text: string | null };
      const run = JSON.parse(row.record) as RunRecord;
      return {
        run: row.spec_text !== null ? { ...run, specText: row.spec_text } : run,
        samples: readSamples(this.db, ref.runPk, ref.runId),
      };
    });
  }

  samples(ref: StoredRunRef, options: ReadSamplesOptions = {}): Sample[] {
    return this.read(`reading run ${ref.runId}`, () => readSamples(this.db, ref.runPk, ref.runId, options));
  }

  /**
   * Samples whose labels hold every condition (and of `metric`, when given),
   * grouped by run, oldest run first. Label values compare as text.
   */
  select(conditions: readonly LabelCondition[], metric?: string): SelectedRun[] {
    return this.read('selecting samples', () => {
      const parts: string[] = [];
      const params: string[] = [];
      for (const [key, value] of conditions) {
        parts.push('SELECT run_pk, set_no FROM labels WHERE key = ? AND value = ?');
        params.push(key, value);
      }
      if (metric !== undefined) {
        parts.push('SELECT ls.run_pk, ls.set_no FROM label_sets ls JOIN run_metrics m ON m.run_pk = ls.run_pk AND m.metric = ?');
        params.push(metric);
      }
      const pairs =
        parts.length > 0
          ? (this.db.prepare(parts.join(' INTERSECT ')).all(...params) as { run_pk: number; set_no: number }[])
          : (this.db.prepare('SELECT run_pk, set_no FROM label_sets').all() as { run_pk: number; set_no: number }[]);
      const sets = new Map<number, Set<number>>();
      for (const { run_pk, set_no } of pairs) {
        const known = sets.get(run_pk) ?? new Set<number>();
        known.add(set_no);
        sets.set(run_pk, known);
      }
      if (sets.size === 0) return [];
      const refs = this.db
        .prepare(`SELECT run_pk AS runPk, run_id AS runId, started_at AS startedAt FROM runs WHERE run_pk IN (${[...sets.keys()].join(',')}) ORDER BY started_at, run_pk`)
        .all() as unknown as StoredRunRef[];
      return refs
        .map((ref) => ({ ref: { ...ref }, samples: readSamples(this.db, ref.runPk, ref.runId, { sets: sets.get(ref.runPk)!, ...(metric !== undefined ? { metric } : {}) }) }))
        .filter((run) => run.samples.length > 0);
    });
  }

  /** Every stored metric with the number of runs that have it, most runs first (the trend page's picker). */
  metrics(): { readonly metric: string; readonly runs: number }[] {
    return this.read(
      'listing metrics',
      () => this.db.prepare('SELECT metric, COUNT(*) AS runs FROM run_metrics GROUP BY metric ORDER BY runs DESC, metric').all() as unknown as { metric: string; runs: number }[],
    );
  }

  /** Label keys with their runs and values (see `labelKeys`), for `key=value` pickers. */
  labelKeys(listedValues?: number): StoredLabelKey[] {
    return this.read('listing labels', () => labelKeys(this.db, listedValues));
  }

  /** Delete runs (all or none). */
  delete(refs: readonly StoredRunRef[]): string[] {
    return this.write('deleting runs', () => {
      for (const ref of refs) deleteRunRows(this.db, ref.runPk);
      return refs.map((r) => r.runId);
    });
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }

  private read<T>(doing: string, work: () => T): T {
    try {
      return work();
    } catch (error) {
      throw storeError(error, this.path, doing);
    }
  }

  private write<T>(doing: string, work: () => T): T {
    try {
      this.db.exec('BEGIN IMMEDIATE');
      const result = work();
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      if (this.db.isTransaction) {
        try {
          this.db.exec('ROLLBACK');
        } catch {
          // SQLite rolls back by itself when ROLLBACK cannot run (e.g. after SQLITE_FULL).
        }
      }
      throw storeError(error, this.path, doing);
    }
  }
}
