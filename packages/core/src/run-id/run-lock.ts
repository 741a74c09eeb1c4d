import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { RUN_FILES } from '@netbench/plugin-api';
import { isSameProcessAlive, processStartTimeSync } from '@netbench/plugin-api/cloud-kit';

/**
 * Where every run keeps a second copy of its `run.lock`, whatever its runs
 * folder (`--runs-dir`, `$NETBENCH_HOME`): `<here>/netbench-<runId>/run.lock`,
 * the run's RAM directory that also holds its tunnel ends. `cleanup --all`
 * reads these, so a sweep from another runs folder spares every run still
 * going on this machine. RAM: the copies go with a reboot, as the lab does.
 */
export const MACHINE_LOCKS_DIR = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
const MACHINE_LOCK_RE = /^netbench-(\d{8}-\d{6}-[A-Za-z0-9]+)$/;

export const machineLockDir = (runId: string, root = MACHINE_LOCKS_DIR) => join(root, `netbench-${runId}`);

/** What a lock says: the process running the run, told apart from a later one with the same pid by its start time. */
export function runLockText(runId: string): string {
  const startTime = processStartTimeSync(process.pid);
  return `${JSON.stringify({ pid: process.pid, ...(startTime ? { startTime } : {}), hostname: hostname(), runId, startedAt: new Date().toISOString() })}\n`;
}

/**
 * The machine copy of this process's lock for `runId`. Returns why it could
 * not be written (the run goes on: only a sweep from another runs folder
 * would miss it), or undefined.
 */
export async function writeMachineLock(runId: string, root = MACHINE_LOCKS_DIR): Promise<string | undefined> {
  const dir = machineLockDir(runId, root);
  try {
    // Readable by all (no secret in it) so a sweep by another user still sees the run is alive; tunnels tighten it to 0700.
    await mkdir(dir, { recursive: true, mode: 0o755 });
    // Whole or absent (write, then rename): a sweep reading it half-written would take the run for dead.
    const part = join(dir, `${RUN_FILES.lock}.${process.pid}`);
    await writeFile(part, runLockText(runId), { mode: 0o644 });
    await rename(part, join(dir, RUN_FILES.lock));
    return undefined;
  } catch (error) {
    return `cannot write ${join(dir, RUN_FILES.lock)} (${(error as Error).message}): \`netbench cleanup --all\` from another runs folder would not see this run is alive`;
  }
}

/** Remove the machine copy, and its directory when nothing else (a tunnel end) is left in it. */
export async function removeMachineLock(runId: string, root = MACHINE_LOCKS_DIR): Promise<void> {
  const dir = machineLockDir(runId, root);
  await rm(join(dir, RUN_FILES.lock), { force: true }).catch(() => {});
  await rmdir(dir).catch(() => {});
}

/**
 * The process still running a run, if any. A run folder (or a machine copy,
 * or a tunnel end) holds `run.lock` while its run is in progress; a process
 * killed with SIGKILL leaves the file behind, so the pid in it is checked for
 * life and, when the lock has it, for its start time: a pid reused by an
 * unrelated process is not the run. A lock of this very process is not
 * another live run.
 */
export async function liveRunPid(dir: string): Promise<number | undefined> {
  let lock: { pid?: unknown; hostname?: unknown; startTime?: unknown };
  try {
    lock = JSON.parse(await readFile(join(dir, RUN_FILES.lock), 'utf8')) as typeof lock;
  } catch {
    return undefined;
  }
  if (typeof lock.pid !== 'number' || lock.hostname !== hostname() || lock.pid === process.pid) return undefined;
  if (typeof lock.startTime === 'string' && existsSync('/proc/self/stat')) {
    return (await isSameProcessAlive(lock.pid, lock.startTime)) ? lock.pid : undefined;
  }
  // A lock without a start time (or no /proc): the pid alone decides.
  try {
    process.kill(lock.pid, 0);
    return lock.pid;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? lock.pid : undefined;
  }
}

/** Every run alive on this machine by its machine copy, whatever its runs folder: run id → pid. */
export async function liveRunsOnMachine(root = MACHINE_LOCKS_DIR): Promise<Map<string, number>> {
  const live = new Map<string, number>();
  for (const name of await readdir(root).catch(() => [] as string[])) {
    const runId = MACHINE_LOCK_RE.exec(name)?.[1];
    if (!runId) continue;
    const pid = await liveRunPid(join(root, name));
    if (pid !== undefined) live.set(runId, pid);
  }
  return live;
}

/**
 * Remove the machine copies that killed runs left (their process is dead),
 * and each directory when nothing else is in it. A directory without a lock
 * is left alone: a run may be between making it and renaming its lock in.
 */
export async function removeDeadMachineLocks(root = MACHINE_LOCKS_DIR): Promise<void> {
  for (const name of await readdir(root).catch(() => [] as string[])) {
    const runId = MACHINE_LOCK_RE.exec(name)?.[1];
    if (!runId || !existsSync(join(root, name, RUN_FILES.lock)) || (await liveRunPid(join(root, name))) !== undefined) continue;
    await removeMachineLock(runId, root);
  }
}

/** How a spared resource is reported. */
export const inUseBy = (runId: string | undefined, pid: number | undefined): string =>
  runId !== undefined && pid !== undefined ? `in use by live run ${runId} (pid ${pid})` : 'in use by a live run';
