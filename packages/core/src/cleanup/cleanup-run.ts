import { existsSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename, isAbsolute, join, resolve, sep } from 'node:path';
import type { LedgerEntry, Logger } from '@netbench/plugin-api';
import { defaultRunsDir, LedgerFile, NetbenchError } from '@netbench/plugin-api';
import { RUN_FILES } from '../engine/run-files.js';
import { deleteResources } from '../engine/teardown.js';
import { EventLog } from '../events/event-log.js';
import { acquireRunLock, liveRunPid, machineLockDir, removeMachineLock } from '../run-id/run-lock.js';
import type { CleanupOptions, CleanupOutcome, CleanupRunOptions } from './cleanup-outcome.js';

const DEFAULT_TIMEOUT_MS = 600_000;

/**
 * Delete what a run left behind, from its ledger alone (`netbench cleanup
 * <runId>`): works in a fresh process after a crash or SIGKILL. Appends
 * `deleted` / `delete-failed` lines, so running it again only retries what
 * is still there. Refuses a run whose process is still alive unless `force`.
 */
export async function cleanupRun(runDirOrId: string, options: CleanupRunOptions): Promise<CleanupOutcome> {
  const runDir = locateRunDir(runDirOrId, options.runsDir);
  if (!existsSync(runDir)) throw new NetbenchError(`no run folder ${runDir}`);
  const runId = basename(runDir);
  // Its folder's lock, or the machine copy (the folder may be a copy or moved).
  const pid = (await liveRunPid(runDir)) ?? (await liveRunPid(machineLockDir(runId)));
  if (pid !== undefined && !options.force) {
    throw new NetbenchError(`run ${runId} is still in progress (pid ${pid}); interrupt it (it tears down by itself) or clean with --force`);
  }
  // Forced on a live run (whose lock it is) or a dry run (deletes nothing): no lock of our own.
  if (pid !== undefined || options.dryRun) return replayLedger(runDir, options);
  // Held while deleting, so that a `netbench run --resume` started meanwhile is refused instead of reusing hosts being deleted.
  // Best effort: on a full disk the lock cannot be written, and cleaning up matters more.
  const locked = await acquireRunLock(runDir, { bestEffort: true });
  try {
    const outcome = await replayLedger(runDir, options);
    // A killed run's machine copy of run.lock (and its RAM directory, once its tunnel ends are gone).
    await removeMachineLock(runId);
    return outcome;
  } finally {
    if (locked) await rm(join(runDir, RUN_FILES.lock), { force: true });
  }
}

/** Replay one run folder's ledger. */
export async function replayLedger(runDir: string, options: CleanupOptions, only?: (entry: LedgerEntry) => boolean): Promise<CleanupOutcome> {
  const runId = basename(runDir);
  const events = new EventLog(runId);
  if (options.onEvent) events.listen(options.onEvent);
  const ledger = await LedgerFile.open(join(runDir, RUN_FILES.ledger), runId);
  try {
    const outcome = await deleteResources(ledger, {
      registry: options.registry,
      runId,
      runDir,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      emit: (event) => events.emit(event),
      log: (plugin) => pluginLog(events, plugin, options.log),
      ...(options.dryRun ? { dryRun: true } : {}),
      ...(only ? { only } : {}),
    });
    return {
      deleted: outcome.deleted.map((e) => e.resource),
      failed: outcome.failed.map(({ resource, error }) => ({ resource, error })),
    };
  } finally {
    await ledger.close();
  }
}

export function pluginLog(events: EventLog, plugin: string, log?: Logger): Logger {
  return {
    debug: (message) => log?.debug(message),
    info: (message) => log?.info(message),
    warn: (message) => {
      log?.warn(message);
      events.emit({ type: 'warning', message, plugin });
    },
  };
}

function locateRunDir(runDirOrId: string, runsDir?: string): string {
  if (isAbsolute(runDirOrId) || runDirOrId.includes(sep) || runDirOrId.startsWith('.')) return resolve(runDirOrId);
  const candidate = join(resolve(runsDir ?? defaultRunsDir()), runDirOrId);
  if (existsSync(candidate)) return candidate;
  // A bare name that is a folder here (e.g. run from inside the runs folder).
  return existsSync(runDirOrId) && statSync(runDirOrId).isDirectory() ? resolve(runDirOrId) : candidate;
}
