import { existsSync } from 'node:fs';
import { lstat, readdir, readFile } from 'node:fs/promises';
import type { LedgerResource } from '@netbench/plugin-api';
import { parseRunIdTime } from '@netbench/plugin-api';
import { runCommand } from '@netbench/plugin-api/cloud-kit';
import { foreignDirProblem, ownDirRule } from '../run-id/own-dir.js';
import { inUseBy, liveRunPid } from '../run-id/run-lock.js';
import { teardownArgv } from './commands.js';
import { ENDPOINT_RECORD, ENDPOINT_RESOURCE, type EndpointData, endpointData } from './running-tunnel.js';

const SHM = '/dev/shm';
const ROOT_RE = /^netbench-(\d{8}-\d{6}-[a-z0-9]+)$/;
const END_RE = /^([A-Za-z0-9_-]+)-([ab])$/;

export interface SweepOutcome {
  readonly deleted: LedgerResource[];
  readonly failed: { resource: LedgerResource; error: string }[];
  /** Ends of runs still alive, and directories netbench did not make, left alone, with why. */
  readonly spared: { resource: LedgerResource; reason: string }[];
}

export interface SweepFilter {
  readonly excludeRunIds: readonly string[];
  /** Pids of the excluded runs, for the report. */
  readonly livePids?: ReadonlyMap<string, number>;
  readonly olderThanMs?: number;
  readonly dryRun?: boolean;
}

/**
 * `netbench cleanup --all`: tunnel ends on this machine of runs whose folder
 * (and so ledger) is not at hand, found by their directory
 * `/dev/shm/netbench-<runId>/<tunnel>-<a|b>`: daemons stopped by pid file,
 * WireGuard sockets and keys removed. Only what netbench made is undone: the
 * run's directory this user's and writable by no one else, the end's this
 * user's and 0700, holding its own copy of its ledger entry (which says what
 * to undo); anyone may write in `/dev/shm`, and pid files in a directory
 * someone else made could name any process. Runs still alive (by id: the
 * caller found them by their locks, whatever their runs folder) and every end
 * whose own copy of `run.lock` names a live process are spared and reported.
 */
export async function sweepTunnelEnds(filter: SweepFilter, shm = SHM): Promise<SweepOutcome> {
  const outcome: SweepOutcome = { deleted: [], failed: [], spared: [] };
  const roots = existsSync(shm) ? await readdir(shm) : [];
  for (const root of roots) {
    const runId = ROOT_RE.exec(root)?.[1];
    if (!runId) continue;
    const excluded = filter.excludeRunIds.includes(runId);
    const started = parseRunIdTime(runId);
    if (!excluded && filter.olderThanMs !== undefined && (!started || started.getTime() > Date.now() - filter.olderThanMs)) continue;
    const rootDir = `${shm}/${root}`;
    const rootStats = await lstat(rootDir).catch(() => undefined);
    if (!rootStats) continue;
    const rootProblem = foreignDirProblem(rootStats);
    const ends = rootStats.isDirectory() ? await readdir(rootDir).catch(() => [] as string[]) : [];
    for (const end of ends) {
      const match = END_RE.exec(end);
      if (!match) continue;
      const dir = `${rootDir}/${end}`;
      const resource: LedgerResource = { type: ENDPOINT_RESOURCE, id: end, data: { runId, dir } };
      const refused = rootProblem ? leftAlone(rootDir, rootProblem) : await notMade(dir, runId, end);
      if (typeof refused === 'string') {
        outcome.spared.push({ resource, reason: refused });
        continue;
      }
      // A run still going (its process alive, whatever its runs folder): not a leftover.
      const pid = excluded ? filter.livePids?.get(runId) : await liveRunPid(dir);
      if (excluded || pid !== undefined) {
        outcome.spared.push({ resource, reason: inUseBy(runId, pid) });
        continue;
      }
      if (filter.dryRun) {
        outcome.deleted.push(resource);
        continue;
      }
      // The script checks the directories again, right where it acts.
      const result = await runCommand(teardownArgv(refused), { timeoutMs: 30_000 });
      if (result.code === 0) outcome.deleted.push(resource);
      else outcome.failed.push({ resource, error: result.stderr.trim() || `exit ${result.code}` });
    }
  }
  return outcome;
}

const leftAlone = (path: string, problem: string, exactMode?: number) => `left alone: ${path}: ${problem}; netbench undoes only directories ${ownDirRule(exactMode)}`;

/** The end's recorded ledger entry when netbench made its directory, else why it is left alone. */
async function notMade(dir: string, runId: string, end: string): Promise<EndpointData | string> {
  const stats = await lstat(dir).catch(() => undefined);
  if (!stats) return leftAlone(dir, 'it is gone');
  const problem = foreignDirProblem(stats, 0o700);
  if (problem) return leftAlone(dir, problem, 0o700);
  const text = await readFile(`${dir}/${ENDPOINT_RECORD}`, 'utf8').catch(() => undefined);
  if (text === undefined)
    return `left alone: ${dir} holds no ${ENDPOINT_RECORD} (made by an older netbench, or not by netbench): undo it with \`netbench cleanup ${runId}\` where its run folder is, or by hand`;
  let recorded: LedgerResource | undefined;
  try {
    recorded = JSON.parse(text) as LedgerResource;
  } catch {
    recorded = undefined;
  }
  const data = recorded && recorded.type === ENDPOINT_RESOURCE && recorded.id === end ? endpointData(recorded, dir) : undefined;
  if (!data || data.runId !== runId) return `left alone: ${dir}/${ENDPOINT_RECORD} does not describe this tunnel end`;
  return data;
}
