import { withStore } from './with-store.js';

export interface DeleteResultsOptions {
  readonly db?: string;
  readonly runs: readonly string[];
}

/**
 * `netbench results delete`: every named run, in one transaction — all or
 * none (an unknown run deletes nothing). Run folders are left alone.
 */
export async function deleteResults(options: DeleteResultsOptions): Promise<{ readonly db: string; readonly deleted: string[] }> {
  return withStore(
    options.db,
    (store) => {
      const refs = options.runs.map((ref) => store.resolve(ref));
      const unique = [...new Map(refs.map((r) => [r.runPk, r])).values()];
      return { db: store.path, deleted: store.delete(unique) };
    },
    { create: false },
  );
}
