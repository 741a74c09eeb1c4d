import { constants, existsSync } from 'node:fs';
import { copyFile, link, readdir, readFile, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { NetbenchError, PRIVATE_FILE_MODE, RUN_FILES } from '@netbench/plugin-api';
import { isSameProcessAlive, processStartTimeSync } from '@netbench/plugin-api/cloud-kit';
import { claimOwnDir, foreignDirError, isOwnDir } from './own-dir.js';

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
 * would miss it), or undefined. Throws when the run's RAM directory is there
 * and not this user's own (`claimOwnDir`): someone made it first, under a run
 * id they saw in `/dev/shm`, to read the keys this run's tunnels put there.
 */
export async function writeMachineLock(runId: string, root = MACHINE_LOCKS_DIR): Promise<string | undefined> {
  const dir = machineLockDir(runId, root);
  let problem: string | undefined;
  try {
    // Readable by all (no secret in it) so a sweep by another user still sees the run is alive; tunnels tighten it to 0700.
    problem = await claimOwnDir(dir, 0o755);
    if (problem === undefined) {
      // Whole or absent (write, then rename): a sweep reading it half-written would take the run for dead.
      const part = join(dir, `${RUN_FILES.lock}.${process.pid}`);
      await writeFile(part, runLockText(runId), { mode: 0o644 });
      await rename(part, join(dir, RUN_FILES.lock));
      return undefined;
    }
  } catch (error) {
    return `cannot write ${join(dir, RUN_FILES.lock)} (${(error as Error).message}): \`netbench cleanup --all\` from another runs folder would not see this run is alive`;
  }
  throw foreignDirError(dir, "the run's RAM directory", problem);
}

/**
 * Remove the machine copy, and its directory when nothing else (a tunnel end)
 * is left in it, unless `keepDir` (a run kept for a later stage keeps the name
 * to itself). Another user's directory of that name is not touched.
 */
export async function removeMachineLock(runId: string, root = MACHINE_LOCKS_DIR, options: { readonly keepDir?: boolean } = {}): Promise<void> {
  const dir = machineLockDir(runId, root);
  if (!(await isOwnDir(dir))) return;
  await rm(join(dir, RUN_FILES.lock), { force: true }).catch(() => {});
  if (!options.keepDir) await rmdir(dir).catch(() => {});
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

/**
 * Take a run folder's lock for this process, or refuse: while the run's own
 * process lives, and when the lock was taken on another machine (a run folder
 * on a shared disk: netbench cannot see that process). The lock file is
 * created exclusively (a hard link of a file written whole), so of two
 * invocations continuing one run at the same moment only one gets it.
 * A lock left by a dead process is removed only by the holder of a short
 * takeover guard (`run.lock.take`, itself created exclusively): nobody else
 * removes a lock and an existing one cannot be replaced, so what the guard
 * holder read is still what it removes — never a lock taken meanwhile.
 * Resolves false only with `bestEffort`, when the lock file cannot be
 * written at all (a full disk): the caller goes on unlocked.
 */
export async function acquireRunLock(runDir: string, options: { readonly bestEffort?: boolean } = {}): Promise<boolean> {
  const file = join(runDir, RUN_FILES.lock);
  // Written whole under a private name, then linked into place: a lock file is never seen half-written.
  const mine = `${file}.${process.pid}.tmp`;
  try {
    await writeFile(mine, runLockText(basename(runDir)), { mode: PRIVATE_FILE_MODE });
  } catch (error) {
    await rm(mine, { force: true }).catch(() => {});
    // A full or read-only disk: `bestEffort` callers (cleanup) go on without the lock.
    if (options.bestEffort) return false;
    throw new NetbenchError(`cannot lock run ${runDir}: ${(error as Error).message}`, { cause: error });
  }
  try {
    return await takeLock(runDir, file, mine);
  } finally {
    await rm(mine, { force: true });
  }
}

/** How long a contender waits for another's takeover guard (held for a few file operations). */
const GUARD_WAIT_MS = 10_000;

async function takeLock(runDir: string, file: string, mine: string): Promise<true> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    if (await placed(runDir, mine, file)) return true;
    refuseHeld(runDir, await readLock(file));
    // Left by a dead process (or unreadable): remove it under the guard, then link ours again.
    const guard = `${file}.take`;
    await takeGuard(runDir, mine, guard);
    try {
      const text = await readFile(file, 'utf8').catch(() => undefined);
      if (text !== undefined) {
        refuseHeld(runDir, parseLock(text));
        await rm(file, { force: true });
      }
      if (await placed(runDir, mine, file)) return true;
    } finally {
      await rm(guard, { force: true });
    }
  }
  throw new NetbenchError(`cannot lock run ${runDir}: other invocations keep taking it`);
}

/** Link this process's lock into place: false when a lock is there already. */
async function placed(runDir: string, mine: string, file: string): Promise<boolean> {
  try {
    await placeLock(mine, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new NetbenchError(`cannot lock run ${runDir}: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * The takeover guard, waiting while a live contender holds it. A guard whose
 * holder died (killed in the few milliseconds it holds it) is moved away and
 * checked to be that dead one; one taken meanwhile is put back.
 */
async function takeGuard(runDir: string, mine: string, guard: string): Promise<void> {
  const deadline = Date.now() + GUARD_WAIT_MS;
  for (;;) {
    if (await placed(runDir, mine, guard)) return;
    const text = await readFile(guard, 'utf8').catch(() => undefined);
    const holder = text === undefined ? undefined : parseLock(text);
    if (text !== undefined && (!holder || !isHeld(holder))) {
      const moved = `${guard}.${process.pid}`;
      if (
        await rename(guard, moved).then(
          () => true,
          () => false,
        )
      ) {
        const movedText = await readFile(moved, 'utf8').catch(() => undefined);
        if (movedText !== text) await link(moved, guard).catch(() => {});
        await rm(moved, { force: true });
      }
      continue;
    }
    if (Date.now() > deadline) {
      throw new NetbenchError(
        `cannot lock run ${runDir}: pid ${String(holder?.pid)} has held ${guard} for ${GUARD_WAIT_MS / 1000} s (it is held for a few file operations, and taken over once its process is gone): if pid ${String(holder?.pid)} is stuck, stop it and try again`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** `link` fails with EEXIST when a lock is there; a filesystem without hard links gets an exclusive copy instead. */
async function placeLock(mine: string, file: string): Promise<void> {
  try {
    await link(mine, file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error;
    await copyFile(mine, file, constants.COPYFILE_EXCL);
  }
}

interface LockRecord {
  readonly pid?: unknown;
  readonly hostname?: unknown;
  readonly startTime?: unknown;
}

async function readLock(file: string): Promise<LockRecord | undefined> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  return text === undefined ? undefined : parseLock(text);
}

function parseLock(text: string): LockRecord | undefined {
  try {
    return JSON.parse(text) as LockRecord;
  } catch {
    return undefined; // torn by a kill mid-write (a copy without hard links): nobody holds it
  }
}

function isHeld(lock: LockRecord): boolean {
  if (typeof lock.pid !== 'number') return false;
  if (lock.hostname !== hostname()) return true;
  if (lock.pid === process.pid) return false;
  // A pid reused by an unrelated process is not the lock's holder.
  if (typeof lock.startTime === 'string' && existsSync('/proc/self/stat')) return processStartTimeSync(lock.pid) === lock.startTime;
  try {
    process.kill(lock.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function refuseHeld(runDir: string, lock: LockRecord | undefined): void {
  if (!lock || !isHeld(lock)) return;
  if (lock.hostname !== hostname()) {
    throw new NetbenchError(
      `run ${runDir} is locked by pid ${String(lock.pid)} on ${String(lock.hostname)}, not this machine: netbench cannot tell whether it still runs. If it does not, delete ${join(runDir, RUN_FILES.lock)} and try again`,
    );
  }
  throw new NetbenchError(`run ${runDir} is still running (pid ${String(lock.pid)}); wait for it or stop it before continuing it`);
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
 * is left alone: a run may be between making it and renaming its lock in;
 * so is one not this user's own (`removeMachineLock`).
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
