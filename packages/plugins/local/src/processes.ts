import { readdir, readFile } from 'node:fs/promises';
import { isSameProcessAlive, processState } from '@netbench/plugin-api/cloud-kit';

// Process identity (pid + start time) is shared with core's run lock: it lives in the cloud kit.
export { isSameProcessAlive, processStartTimeSync, processState } from '@netbench/plugin-api/cloud-kit';

export interface ProcessRef {
  readonly pid: number;
  readonly startTime?: string;
  /** Signal the whole process group (the pid leads it). */
  readonly group?: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function signal(ref: ProcessRef, sig: NodeJS.Signals): void {
  try {
    process.kill(ref.group ? -ref.pid : ref.pid, sig);
  } catch {
    // Already gone, or the group has no leader any more: try the pid alone.
    try {
      process.kill(ref.pid, sig);
    } catch {
      /* gone */
    }
  }
}

/**
 * SIGTERM every process that is still the one recorded, wait up to `graceMs`
 * for them to exit, SIGKILL the survivors. Returns the pids that were alive.
 */
export async function terminate(refs: readonly ProcessRef[], graceMs = 1500): Promise<number[]> {
  const alive: ProcessRef[] = [];
  for (const ref of refs) if (await isSameProcessAlive(ref.pid, ref.startTime)) alive.push(ref);
  for (const ref of alive) signal(ref, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  let remaining = alive;
  // Most processes are gone within a millisecond or two of the signal: look again after 1, 2, 4, 8, 16 ms, then every 25 ms.
  let wait = 1;
  const nextWait = () => {
    const ms = wait;
    wait = Math.min(wait * 2, 25);
    return ms;
  };
  while (remaining.length > 0 && Date.now() < deadline) {
    await sleep(nextWait());
    const next: ProcessRef[] = [];
    for (const ref of remaining) if (await isSameProcessAlive(ref.pid, ref.startTime)) next.push(ref);
    remaining = next;
  }
  for (const ref of remaining) signal(ref, 'SIGKILL');
  const killDeadline = Date.now() + 2000;
  wait = 1;
  while (remaining.length > 0 && Date.now() < killDeadline) {
    await sleep(nextWait());
    const next: ProcessRef[] = [];
    for (const ref of remaining) if (await isSameProcessAlive(ref.pid, ref.startTime)) next.push(ref);
    remaining = next;
  }
  if (remaining.length > 0) throw new Error(`processes ${remaining.map((r) => r.pid).join(', ')} survived SIGKILL`);
  return alive.map((ref) => ref.pid);
}

export interface ProcessInfo {
  readonly pid: number;
  readonly startTime: string;
  readonly argv: readonly string[];
}

/** Every process whose argv matches `predicate` (reads /proc). */
export async function findProcesses(predicate: (argv: readonly string[]) => boolean): Promise<ProcessInfo[]> {
  const found: ProcessInfo[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    try {
      const argv = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').filter((part) => part.length > 0);
      if (argv.length === 0 || !predicate(argv)) continue;
      const state = await processState(pid);
      if (state && state.state !== 'Z') found.push({ pid, startTime: state.startTime, argv });
    } catch {
      // The process exited while we looked.
    }
  }
  return found;
}
