import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { NetbenchError, RUN_FILES, type RunResults } from '@netbench/plugin-api';
import type { IngestResult } from './ingest.js';
import { withStore } from './with-store.js';

export interface AddResultsOptions {
  readonly db?: string;
  /** Run folders or `results.json` files. */
  readonly paths: readonly string[];
}

/**
 * `netbench results add`: store runs from their `results.json` (a run the
 * store missed, e.g. when its disk was full, or one copied from another
 * machine). A run already stored is replaced.
 */
export async function addResults(options: AddResultsOptions): Promise<{ readonly db: string; readonly added: IngestResult[] }> {
  const runs: RunResults[] = [];
  for (const path of options.paths) runs.push(await readResults(path));
  return withStore(options.db, (store) => ({ db: store.path, added: runs.map((r) => store.ingest(r)) }));
}

async function readResults(path: string): Promise<RunResults> {
  let file = path;
  try {
    if ((await stat(path)).isDirectory()) file = join(path, RUN_FILES.results);
  } catch (error) {
    throw new NetbenchError(`${path}: not found`, { cause: error });
  }
  let body: unknown;
  try {
    body = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new NetbenchError(`${file}: not a readable results.json (${(error as Error).message})`, { cause: error });
  }
  const results = body as Partial<RunResults>;
  if (typeof results?.run?.runId !== 'string' || !Array.isArray(results.samples) || !Array.isArray(results.run.trials)) {
    throw new NetbenchError(`${file}: not a netbench results.json (expected { run: { runId, trials, … }, samples: [...] })`);
  }
  return results as RunResults;
}
