import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { processState } from '@netbench/plugin-api/cloud-kit';
import { afterEach, describe, expect, it } from 'vitest';
import { liveRunPid, liveRunsOnMachine, machineLockDir, removeDeadMachineLocks, removeMachineLock, runLockText, writeMachineLock } from './run-lock.js';

let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

/** A stand-in for a run's process: a real child, with the lock a run would write for it. */
async function liveChild(): Promise<{ pid: number; startTime: string; kill: () => Promise<void> }> {
  const child = spawn('sleep', ['30'], { stdio: 'ignore' });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const state = await processState(child.pid!);
  return {
    pid: child.pid!,
    startTime: state!.startTime,
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

describe.skipIf(!existsSync('/proc/self/stat'))('run.lock: is the run still going?', () => {
  it('a live process with the recorded start time is the run; the same pid with another start time (a reused pid) is not', async () => {
    root = mkdtempSync(join(tmpdir(), 'nbt-lock-'));
    const child = await liveChild();
    try {
      writeFileSync(join(root, 'run.lock'), JSON.stringify({ pid: child.pid, startTime: child.startTime, hostname: hostname() }));
      expect(await liveRunPid(root)).toBe(child.pid);
      // The pid is alive, but its start time is not the run's: a process that reused the pid after the run died.
      writeFileSync(join(root, 'run.lock'), JSON.stringify({ pid: child.pid, startTime: String(Number(child.startTime) - 1), hostname: hostname() }));
      expect(await liveRunPid(root)).toBeUndefined();
      // Another machine's lock (a run folder on a shared disk) says nothing of this machine's pids.
      writeFileSync(join(root, 'run.lock'), JSON.stringify({ pid: child.pid, startTime: child.startTime, hostname: `${hostname()}-other` }));
      expect(await liveRunPid(root)).toBeUndefined();
      // A lock without a start time (older netbench) falls back to the pid alone.
      writeFileSync(join(root, 'run.lock'), JSON.stringify({ pid: child.pid, hostname: hostname() }));
      expect(await liveRunPid(root)).toBe(child.pid);
    } finally {
      await child.kill();
    }
    expect(await liveRunPid(root)).toBeUndefined();
  });

  it('the lock a run writes names this process with its start time', () => {
    const lock = JSON.parse(runLockText('20261128-130000-abcdef')) as Record<string, unknown>;
    expect(lock).toMatchObject({ pid: process.pid, hostname: hostname(), runId: '20261128-130000-abcdef' });
    expect(lock['startTime']).toMatch(/^\d+$/);
  });

  it('machine copies: live runs are found by id whatever their runs folder; dead ones and foreign names are not', async () => {
    root = mkdtempSync(join(tmpdir(), 'nbt-locks-'));
    const liveRun = '20000101-000000-live01';
    const deadRun = '20000101-000000-dead01';
    const child = await liveChild();
    const dead = await liveChild();
    await dead.kill();
    try {
      for (const [runId, proc] of [
        [liveRun, child],
        [deadRun, dead],
      ] as const) {
        await mkdir(machineLockDir(runId, root), { recursive: true });
        writeFileSync(join(machineLockDir(runId, root), 'run.lock'), JSON.stringify({ pid: proc.pid, startTime: proc.startTime, hostname: hostname(), runId }));
      }
      await mkdir(join(root, 'netbench-not-a-run-id'));
      expect(await liveRunsOnMachine(root)).toEqual(new Map([[liveRun, child.pid]]));
      // The dead run's copy is swept, the live one's kept.
      await removeDeadMachineLocks(root);
      expect(existsSync(machineLockDir(deadRun, root))).toBe(false);
      expect(existsSync(join(machineLockDir(liveRun, root), 'run.lock'))).toBe(true);
    } finally {
      await child.kill();
    }
    expect(await liveRunsOnMachine(root)).toEqual(new Map());
    // A directory whose lock is not there yet (a run about to rename it in), or that holds something else, stays.
    await mkdir(machineLockDir('20000101-000000-nolock', root));
    await writeFile(join(machineLockDir(liveRun, root), 'other'), '');
    await removeDeadMachineLocks(root);
    expect(existsSync(machineLockDir('20000101-000000-nolock', root))).toBe(true);
    expect(existsSync(join(machineLockDir(liveRun, root), 'run.lock'))).toBe(false);
    expect(existsSync(join(machineLockDir(liveRun, root), 'other'))).toBe(true);

    // This process's own copy: written, then removed with its directory.
    const own = '20261128-130000-own001';
    expect(await writeMachineLock(own, root)).toBeUndefined();
    expect(JSON.parse(readFileSync(join(machineLockDir(own, root), 'run.lock'), 'utf8'))).toMatchObject({ pid: process.pid, runId: own });
    await removeMachineLock(own, root);
    expect(existsSync(machineLockDir(own, root))).toBe(false);
    // A directory that cannot be made is a reason, not a crash.
    expect(await writeMachineLock(own, join(root, 'missing', '\0bad'))).toMatch(/cannot write .*run\.lock/);
  });
});
