import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type RunOutcome, SpecError } from '@netbench/core';
import { type LedgerEntry, NetbenchError, RUN_FILES } from '@netbench/plugin-api';
import type { RunEnded, TeardownItem } from '../shared/bridge-types.js';

/** How a finished run ended: status, why it failed, and what its ledger says was torn down. */
export function runEnded(outcome: RunOutcome): RunEnded {
  const { record } = outcome;
  return {
    status: record.status,
    exitCode: outcome.exitCode,
    errors: record.errors,
    failedTrials: record.trials.filter((t) => t.status === 'failed').map((t) => ({ id: t.id, error: t.error ?? 'failed' })),
    teardown: teardownOf(record.runDir),
    samples: outcome.samples.length,
    runDir: record.runDir,
  };
}

/** A run that never started (invalid spec, over the cost guard, run folder not creatable): nothing was created. */
export function refusedRun(error: unknown): RunEnded {
  const message = error instanceof SpecError ? `the spec is invalid:\n${error.message}` : error instanceof Error ? error.message : String(error);
  const exitCode = error instanceof NetbenchError ? error.exitCode : 1;
  return { status: 'refused', exitCode, errors: [message], failedTrials: [], teardown: [], samples: 0 };
}

/**
 * Each resource of the run with the last phase the ledger recorded for it
 * (`deleted`, or `delete-failed` with the error). The ledger is the truth
 * teardown and `netbench cleanup` work from.
 */
export function teardownOf(runDir: string): TeardownItem[] {
  let text: string;
  try {
    text = readFileSync(join(runDir, RUN_FILES.ledger), 'utf8');
  } catch {
    return [];
  }
  const last = new Map<string, LedgerEntry>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const entry = JSON.parse(line) as LedgerEntry;
      last.set(`${entry.plugin}\u0000${entry.resource.type}\u0000${entry.resource.id}`, entry);
    } catch {
      // A line cut short by a crash; the others still tell the story.
    }
  }
  return [...last.values()].map((e) => ({
    plugin: e.plugin,
    type: e.resource.type,
    id: e.resource.id,
    state: e.phase,
    ...(e.resource.host !== undefined ? { host: e.resource.host } : {}),
    ...(e.error !== undefined ? { error: e.error } : {}),
  }));
}
