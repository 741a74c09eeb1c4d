import type { DatabaseSync } from './sqlite.js';

const CHILD_TABLES = ['hosts', 'trials', 'raw_files', 'label_sets', 'labels', 'samples', 'histograms', 'run_metrics'] as const;

/** Delete one run and every row that belongs to it. The caller holds the transaction. */
export function deleteRunRows(db: DatabaseSync, runPk: number): void {
  for (const table of CHILD_TABLES) db.prepare(`DELETE FROM ${table} WHERE run_pk = ?`).run(runPk);
  db.prepare('DELETE FROM runs WHERE run_pk = ?').run(runPk);
}
