import { checkPaths, type PathCheck, type PathCheckOptions } from '../stats/path-check.js';
import { withStore } from './with-store.js';

/** Exit code of `netbench check` when a candidate falls outside the tolerance (as `results trend --fail-on-regression`). */
export const CHECK_FAILED_EXIT_CODE = 7;

export interface CheckRunOptions extends PathCheckOptions {
  /** Results store file; default `defaultStorePath()`. */
  readonly db?: string;
  /** A stored run (id, prefix/suffix, `latest[~N]`). */
  readonly run: string;
}

/** `netbench check`: `checkPaths` over one stored run. */
export async function checkRun(options: CheckRunOptions): Promise<PathCheck & { readonly runId: string }> {
  return withStore(
    options.db,
    (store) => {
      const ref = store.resolve(options.run);
      return { runId: ref.runId, ...checkPaths(store.samples(ref), options) };
    },
    { create: false },
  );
}
