import { readdir } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type { LedgerResource } from '@netbench/plugin-api';
import { defaultRunsDir, newRunId, parseRunIdTime, pendingResources, readLedger } from '@netbench/plugin-api';
import { callPlugin } from '../engine/call-plugin.js';
import { RUN_FILES } from '../engine/run-files.js';
import { errorMessage } from '../engine/run-state.js';
import { EventLog } from '../events/event-log.js';
import { inUseBy, liveRunPid, liveRunsOnMachine, removeDeadMachineLocks } from '../run-id/run-lock.js';
import { sweepTunnelEnds } from '../tunnels/sweep.js';
import type { CleanupAllOptions, CleanupOutcome } from './cleanup-outcome.js';
import { pluginLog, replayLedger } from './cleanup-run.js';

const DEFAULT_TIMEOUT_MS = 600_000;
const sameResource = (a: LedgerResource, b: LedgerResource) => a.type === b.type && a.id === b.id;

/**
 * Find and delete leftovers of every run (`netbench cleanup --all`): first
 * replay the ledger of each run folder that still lists resources, then ask
 * each cloud plugin's `cleanup` for resources named after a run id, which
 * also finds runs whose folder is gone or elsewhere. A run whose process is
 * alive on this machine (its lock here or its machine copy, whatever its runs
 * folder) is spared throughout and its resources reported as in use.
 */
export async function cleanupAll(options: CleanupAllOptions): Promise<CleanupOutcome> {
  const outcome: CleanupOutcome & { skipped: { cloud: string; reason: string }[]; spared: { resource: LedgerResource; reason: string }[] } = {
    deleted: [],
    failed: [],
    skipped: [],
    spared: [],
  };
  const runsDir = resolve(options.runsDir ?? defaultRunsDir());
  const cutoff = options.olderThanMs !== undefined ? Date.now() - options.olderThanMs : undefined;

  // Every run alive on this machine, whatever its runs folder (machine copies of run.lock), plus this folder's own.
  const live = await liveRunsOnMachine(options.machineLocksDir);
  for (const runDir of await runFolders(runsDir)) {
    const entries = await readLedger(join(runDir, RUN_FILES.ledger));
    const pending = pendingResources(entries).filter((e) => options.cloud === undefined || e.plugin === options.cloud);
    const pid = live.get(basename(runDir)) ?? (await liveRunPid(runDir));
    if (pid !== undefined) {
      live.set(basename(runDir), pid);
      outcome.spared.push(...pending.map((e) => ({ resource: e.resource, reason: inUseBy(basename(runDir), pid) })));
      continue;
    }
    if (pending.length === 0) continue;
    const started = parseRunIdTime(basename(runDir)) ?? new Date(entries[0]?.time ?? 0);
    if (cutoff !== undefined && started.getTime() > cutoff) continue;
    const replayed = await replayLedger(runDir, options, (e) => options.cloud === undefined || e.plugin === options.cloud);
    outcome.deleted.push(...replayed.deleted);
    outcome.failed.push(...replayed.failed);
  }

  const events = new EventLog(`cleanup-${newRunId()}`);
  if (options.onEvent) events.listen(options.onEvent);
  for (const descriptor of options.registry.list('cloud')) {
    if (options.cloud !== undefined && descriptor.name !== options.cloud) continue;
    try {
      const cloud = await options.registry.get('cloud', descriptor.name);
      if (!cloud?.cleanup) continue;
      // Runs still alive on this machine are spared, even when their resources match by name.
      const filter = {
        ...(options.olderThanMs !== undefined ? { olderThanMs: options.olderThanMs } : {}),
        ...(options.dryRun ? { dryRun: true } : {}),
        excludeRunIds: [...live.keys()],
      };
      const report = await callPlugin(
        cloud,
        'cleanup',
        (signal) => cloud.cleanup!(filter, { runId: events.runId, runDir: runsDir, signal, log: pluginLog(events, cloud.name, options.log) }),
        {
          timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
          emit: (event) => events.emit(event),
        },
      );
      outcome.deleted.push(...report.found.filter((r) => !report.failed.some((f) => sameResource(f.resource, r))));
      outcome.failed.push(...report.failed);
      for (const resource of report.spared ?? []) {
        const runId = typeof resource.data?.runId === 'string' ? resource.data.runId : undefined;
        outcome.spared.push({ resource, reason: inUseBy(runId, runId !== undefined ? live.get(runId) : undefined) });
      }
    } catch (error) {
      // Every installed cloud is asked; one this machine has no account for is skipped, not a failure.
      if (options.cloud === undefined) outcome.skipped.push({ cloud: descriptor.name, reason: errorMessage(error) });
      else outcome.failed.push({ resource: { type: 'cloud-plugin', id: descriptor.name }, error: errorMessage(error) });
    }
  }
  // Tunnel ends of runs whose folder is elsewhere: their daemons died with the namespaces above, their keys did not.
  if (options.cloud === undefined || options.cloud === 'local') {
    // The same RAM directories as the machine locks (one per run): a test pointing those elsewhere never sweeps the machine's.
    const swept = await sweepTunnelEnds(
      {
        excludeRunIds: [...live.keys()],
        livePids: live,
        ...(options.olderThanMs !== undefined ? { olderThanMs: options.olderThanMs } : {}),
        ...(options.dryRun ? { dryRun: true } : {}),
      },
      options.machineLocksDir,
    );
    outcome.deleted.push(...swept.deleted);
    outcome.failed.push(...swept.failed);
    outcome.spared.push(...swept.spared);
  }
  // The machine copies of run.lock that killed runs left: bookkeeping of netbench's own, not a cloud resource.
  if (!options.dryRun) await removeDeadMachineLocks(options.machineLocksDir);
  return outcome;
}

async function runFolders(runsDir: string): Promise<string[]> {
  try {
    const entries = await readdir(runsDir, { withFileTypes: true });
    return entries
      .filter((e) => e.isDirectory())
      .map((e) => join(runsDir, e.name))
      .sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
