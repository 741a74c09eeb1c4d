import { spawn } from 'node:child_process';
import { expect, it } from 'vitest';
import { findProcesses, isSameProcessAlive, processState, terminate } from './processes.js';

it('kills a process only while it is the one recorded (pid + start time)', async () => {
  const child = spawn('sleep', ['60.5'], { stdio: 'ignore' });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
  const pid = child.pid!;
  const state = await processState(pid);
  expect(state?.startTime).toMatch(/^\d+$/);

  // A different start time means "another process reused the pid": left alone.
  const wrong = String(Number(state!.startTime) + 1);
  expect(await isSameProcessAlive(pid, wrong)).toBe(false);
  expect(await terminate([{ pid, startTime: wrong }])).toEqual([]);
  expect(await isSameProcessAlive(pid, state!.startTime)).toBe(true);

  expect((await findProcesses((argv) => argv.join(' ') === 'sleep 60.5')).map((p) => p.pid)).toContain(pid);
  expect(await terminate([{ pid, startTime: state!.startTime }])).toEqual([pid]);
  expect(await exited).toBe('SIGTERM');
  expect(await isSameProcessAlive(pid)).toBe(false);
});

it('SIGKILLs a process that ignores SIGTERM after the grace period', async () => {
  const child = spawn(process.execPath, ['-e', "process.on('SIGTERM', () => {}); console.log('ready'); setInterval(() => {}, 1000)"], { stdio: ['ignore', 'pipe', 'ignore'] });
  await new Promise((resolve) => child.stdout!.once('data', resolve));
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
  const began = Date.now();
  expect(await terminate([{ pid: child.pid! }], 300)).toEqual([child.pid]);
  expect(Date.now() - began).toBeGreaterThanOrEqual(300);
  expect(await exited).toBe('SIGKILL');
});
