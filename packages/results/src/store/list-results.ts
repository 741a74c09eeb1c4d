import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { RunFilter, RunList } from './list-runs.js';
import { defaultStorePath } from './store-path.js';
import { withStore } from './with-store.js';

export interface ListResultsOptions extends RunFilter {
  /** Store file; default `defaultStorePath()`. */
  readonly db?: string;
}

/** `netbench results list`: stored runs, newest first. A store not created yet lists nothing. */
export async function listResults(options: ListResultsOptions = {}): Promise<RunList & { readonly db: string }> {
  const db = resolve(options.db ?? defaultStorePath());
  if (!existsSync(db)) return { db, runs: [], total: 0 };
  const { db: _db, ...filter } = options;
  return { db, ...(await withStore(db, (store) => store.list(filter), { readOnly: true })) };
}
