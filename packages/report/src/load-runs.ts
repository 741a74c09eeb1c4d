import { existsSync, readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { defaultRunsDir, NetbenchError, RUN_FILES, type RunResults } from '@netbench/plugin-api';
import { exportResults } from '@netbench/results';

export interface LoadRunOptions {
  /** Parent of run folders for run ids; default `defaultRunsDir()`. */
  readonly runsDir?: string;
  /** Results store to look in when no run folder matches; default core's `defaultStorePath()`. */
  readonly db?: string;
}

/**
 * A run's results, from (in this order) a run folder or results.json path,
 * a run id in the runs folder, the results store (ids, unique prefixes or
 * suffixes, `latest`, and runs brought in by `netbench import`, which have
 * no folder), or the unique start or end of a folder name (`dl3yw4`).
 * Errors name what was looked for and where.
 */
export async function loadRunResults(ref: string, options: LoadRunOptions = {}): Promise<RunResults> {
  const runsDir = resolve(options.runsDir ?? defaultRunsDir());
  if (!existsSync(ref) && !existsSync(join(runsDir, ref))) {
    const stored = await fromStore(ref, options.db);
    if (stored.results) return stored.results;
    try {
      return await readResultsFile(locate(ref, runsDir));
    } catch (error) {
      throw new NetbenchError(`${(error as Error).message}; and from the results store: ${stored.error}`, { cause: error });
    }
  }
  return readResultsFile(locate(ref, runsDir));
}

async function fromStore(ref: string, db: string | undefined): Promise<{ results?: RunResults; error?: string }> {
  try {
    const [results] = await exportResults({ ...(db ? { db } : {}), runs: [ref] });
    return results ? { results } : { error: 'no such run' };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

async function readResultsFile(file: string): Promise<RunResults> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const dir = file.slice(0, -RUN_FILES.results.length - 1);
    const hint = existsSync(join(dir, RUN_FILES.samples)) ? ' (the run did not finish: it has samples.jsonl but no results.json)' : '';
    throw new NetbenchError(`cannot read ${file}${hint}: ${(error as Error).message}`, { cause: error });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new NetbenchError(`${file} is not valid JSON: ${(error as Error).message}`, { cause: error });
  }
  if (!isRunResults(parsed)) throw new NetbenchError(`${file} is not a netbench results.json (expected { run: { runId, trials }, samples: [] })`);
  return parsed;
}

function locate(ref: string, runsDir: string): string {
  if (existsSync(ref)) {
    const path = resolve(ref);
    return statSync(path).isDirectory() ? join(path, RUN_FILES.results) : path;
  }
  const direct = join(runsDir, ref);
  if (existsSync(direct)) return join(direct, RUN_FILES.results);
  const runs = existsSync(runsDir) ? readdirSync(runsDir) : [];
  const matches = runs.filter((name) => name.endsWith(ref) || name.startsWith(ref));
  if (matches.length === 1) return join(runsDir, matches[0]!, RUN_FILES.results);
  if (matches.length > 1) throw new NetbenchError(`"${ref}" matches ${matches.length} runs in ${runsDir}: ${matches.slice(0, 5).join(', ')}${matches.length > 5 ? ', …' : ''}`);
  throw new NetbenchError(`no run "${basename(ref)}": not a folder or file, and not in ${runsDir}`);
}

function isRunResults(value: unknown): value is RunResults {
  if (typeof value !== 'object' || value === null) return false;
  const { run, samples } = value as { run?: unknown; samples?: unknown };
  if (typeof run !== 'object' || run === null || !Array.isArray(samples)) return false;
  const { runId, trials } = run as { runId?: unknown; trials?: unknown };
  return typeof runId === 'string' && Array.isArray(trials);
}
