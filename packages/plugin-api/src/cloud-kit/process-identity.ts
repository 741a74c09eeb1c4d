import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

/**
 * A pid is recorded with its start time (clock ticks since boot, field 22 of
 * /proc/PID/stat) so a later kill, or a later "is this run still going?",
 * never mistakes an unrelated process that reused the pid for the recorded one.
 */
export interface ProcState {
  readonly state: string;
  readonly startTime: string;
}

function parseStat(stat: string): ProcState | undefined {
  // The command name (field 2) may hold spaces and parentheses: split after the last ')'.
  // rest[0] is field 3 (state), so field 22 is rest[19].
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const [state] = rest;
  const startTime = rest[19];
  return state && startTime ? { state, startTime } : undefined;
}

/** State and start time of a process, or undefined when it does not exist (or /proc does not). */
export async function processState(pid: number): Promise<ProcState | undefined> {
  try {
    return parseStat(await readFile(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Synchronous variant for callers that cannot await (`onSpawn`, writing a lock). */
export function processStartTimeSync(pid: number): string | undefined {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.startTime;
  } catch {
    return undefined;
  }
}

/** Alive and, when `startTime` is given, still the same process. Zombies count as gone. */
export async function isSameProcessAlive(pid: number, startTime?: string): Promise<boolean> {
  const state = await processState(pid);
  if (!state || state.state === 'Z' || state.state === 'X') return false;
  return startTime === undefined || state.startTime === startTime;
}
