import type { RunResults } from '@netbench/plugin-api';
import { withStore } from './with-store.js';

export interface ExportResultsOptions {
  readonly db?: string;
  /** Run references (ids, prefixes, `latest~N`, folders). */
  readonly runs: readonly string[];
}

/** `netbench results export`: stored runs exactly as their `results.json` held them (the CLI formats them). */
export async function exportResults(options: ExportResultsOptions): Promise<RunResults[]> {
  return withStore(
    options.db,
    (store) => {
      const refs = options.runs.map((ref) => store.resolve(ref));
      return refs.map((ref) => store.load(ref));
    },
    { create: false, readOnly: true },
  );
}
