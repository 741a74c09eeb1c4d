import { constants } from 'node:fs';
import { copyFile, link, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { NetbenchError, PRIVATE_FILE_MODE, RUN_FILES } from '@netbench/plugin-api';

/**
 * The process still running a run, if any. A run folder holds `run.lock`
 * while its run is in progress; a process killed with SIGKILL leaves the file
 * behind, so the pid in it is checked for life.
 */
export async function liveRunPid(runDir: string): Promise<number | undefined> {
  let lock: { pid?: unknown; hostname?: unknown };
  try {
    lock = JSON.parse(await readFile(join(runDir, RUN_FILES.lock), 'utf8')) as typeof lock;
  } catch {
    return undefined;
  }
  if (typeof lock.pid !== 'number' || lock.hostname !== hostname() || lock.pid === process.pid) return undefined;
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
 * invocations continuing one run at the same moment only one gets it. A
 * lock left by a dead process is moved away first (a rename: one contender
 * wins) and checked to be that dead one.
 * Resolves false only with `bestEffort`, when the lock file cannot be
 * written at all (a full disk): the caller goes on unlocked.
 */
export async function acquireRunLock(runDir: string, options: { readonly bestEffort?: boolean } = {}): Promise<boolean> {
  const file = join(runDir, RUN_FILES.lock);
  // Written whole under a private name, then linked into place: a lock file is never seen half-written.
  const mine = `${file}.${process.pid}.tmp`;
  try {
    await writeFile(mine, `${JSON.stringify({ pid: process.pid, hostname: hostname(), startedAt: new Date().toISOString() })}\n`, { mode: PRIVATE_FILE_MODE });
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

async function takeLock(runDir: string, file: string, mine: string): Promise<true> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    try {
      await placeLock(mine, file);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new NetbenchError(`cannot lock run ${runDir}: ${(error as Error).message}`, { cause: error });
    }
    refuseHeld(runDir, await readLock(file));
    const stale = `${file}.stale-${process.pid}`;
    try {
      await rename(file, stale);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // another invocation moved it first
      throw error;
    }
    const moved = await readLock(stale);
    if (moved && isHeld(moved)) {
      // Another invocation locked the run between our check and the rename: give its lock back.
      await link(stale, file).catch(() => {});
      await rm(stale, { force: true });
      refuseHeld(runDir, moved);
    }
    await rm(stale, { force: true });
  }
  throw new NetbenchError(`cannot lock run ${runDir}: other invocations keep taking it`);
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
}

async function readLock(file: string): Promise<LockRecord | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as LockRecord;
  } catch {
    return undefined; // gone, or torn by a kill mid-write: nobody holds it
  }
}

function isHeld(lock: LockRecord): boolean {
  if (typeof lock.pid !== 'number') return false;
  if (lock.hostname !== hostname()) return true;
  if (lock.pid === process.pid) return false;
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
    throw new NetbenchError(`run ${runDir} is locked by pid ${String(lock.pid)} on ${String(lock.hostname)}, not this machine: netbench cannot tell whether it still runs. If it does not, delete ${join(runDir, RUN_FILES.lock)} and try again`);
  }
  throw new NetbenchError(`run ${runDir} is still running (pid ${String(lock.pid)}); wait for it or stop it before continuing it`);
}
