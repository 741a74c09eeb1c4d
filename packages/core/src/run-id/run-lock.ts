import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { RUN_FILES } from '@netbench/plugin-api';

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
