import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NetbenchEvent, RunResults, Sample } from '@netbench/plugin-api';

/** A run folder's `results.json`. */
export type Results = RunResults;

/** The only run folder under a runs dir (tests give every run its own). */
export function onlyRunDir(runsDir: string): string {
  const runs = existsSync(runsDir) ? readdirSync(runsDir) : [];
  if (runs.length !== 1) throw new Error(`expected one run in ${runsDir}, found ${runs.length}`);
  return join(runsDir, runs[0]!);
}

export function readResults(runDir: string): Results {
  return JSON.parse(readFileSync(join(runDir, 'results.json'), 'utf8')) as Results;
}

export function readEvents(runDir: string): NetbenchEvent[] {
  const file = join(runDir, 'events.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as NetbenchEvent);
}

/** Samples of one metric, optionally restricted to one tool. */
export function metric(samples: readonly Sample[], name: string, tool?: string): Sample[] {
  return samples.filter((s) => s.metric === name && (tool === undefined || s.labels.tool === tool));
}

/** Poll until `check` returns a value, or fail after `timeoutMs`. */
export async function waitFor<T>(check: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
