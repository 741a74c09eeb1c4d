import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { mustRun, runCommand } from '@netbench/plugin-api/cloud-kit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hubName } from './naming.js';
import { deleteNetns, teardownResources } from './teardown.js';
import { testRunId } from './test-support/lab.js';

// Lets one test make /proc unreadable to the teardown code, to reach its `ip netns pids` fallback.
const procUnreadable = vi.hoisted(() => ({ on: false }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs/promises')>();
  const readdir = ((path: unknown, ...rest: unknown[]) => {
    if (procUnreadable.on && path === '/proc') return Promise.reject(Object.assign(new Error("EACCES: permission denied, scandir '/proc'"), { code: 'EACCES' }));
    return (fs.readdir as (...args: unknown[]) => unknown)(path, ...rest);
  }) as typeof fs.readdir;
  return { ...fs, readdir, default: { ...fs, readdir } };
});

/** The real `ip`, found before any test puts its shim first in PATH. */
const realIp =
  (process.env.PATH ?? '')
    .split(delimiter)
    .map((dir) => join(dir, 'ip'))
    .find((path) => existsSync(path)) ?? '/usr/sbin/ip';
const ownNetns = statSync('/proc/self/ns/net').ino;
const netnsFile = (name: string) => `/run/netns/${name}`;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Put an `ip` first in PATH that appends its argv (and, for `-batch`, its
 * input) to a log and execs the real one, so a test counts the `ip`
 * processes teardown starts. Returns the log reader.
 */
function ipShim(): { calls(): string[]; input(): string } {
  const dir = mkdtempSync(join(tmpdir(), 'nbt-ipshim-'));
  const log = join(dir, 'calls.log');
  writeFileSync(
    join(dir, 'ip'),
    ['#!/bin/sh', `printf '%s\\n' "$*" >> '${log}'`, `case " $* " in *" -batch "*) tee -a '${log}.stdin' | exec '${realIp}' "$@" ;; *) exec '${realIp}' "$@" ;; esac`, ''].join(
      '\n',
    ),
  );
  chmodSync(join(dir, 'ip'), 0o755);
  const before = process.env.PATH;
  process.env.PATH = `${dir}${delimiter}${before ?? ''}`;
  cleanups.push(() => {
    process.env.PATH = before;
    rmSync(dir, { recursive: true, force: true });
  });
  const read = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : '');
  return {
    calls: () =>
      read(log)
        .split('\n')
        .filter((line) => line !== ''),
    input: () => read(`${log}.stdin`),
  };
}

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  procUnreadable.on = false;
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Namespaces named as a run's are (two hosts and the hub), made with the real `ip`, removed after the test. */
async function makeNamespaces(): Promise<string[]> {
  const runId = testRunId();
  const names = [`nb-${runId}-a`, `nb-${runId}-b`, hubName(runId)];
  cleanups.push(async () => {
    for (const name of names) {
      await runCommand([realIp, 'netns', 'del', name]);
      rmSync(netnsFile(name), { recursive: true, force: true });
    }
  });
  for (const name of names) await mustRun([realIp, 'netns', 'add', name]);
  return names;
}

/** A long sleep, in a namespace when given, once it runs there; killed after the test if still alive. */
async function startSleep(netns?: string): Promise<ChildProcess> {
  const child = spawn(netns ? realIp : 'sleep', netns ? ['netns', 'exec', netns, 'sleep', '600'] : ['600'], { stdio: 'ignore' });
  cleanups.push(() => void child.kill('SIGKILL'));
  const deadline = Date.now() + 5000;
  for (;;) {
    let inside = false;
    try {
      const argv = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0');
      inside = argv[0] === 'sleep' && (netns === undefined || statSync(`/proc/${child.pid}/ns/net`).ino !== ownNetns);
    } catch {
      /* not started yet */
    }
    if (inside) return child;
    if (Date.now() > deadline) throw new Error(`sleep in ${netns ?? 'this namespace'} did not start`);
    await wait(5);
  }
}

/** Whether the child exited (within a moment: its exit reaches us asynchronously). */
async function exited(child: ChildProcess, withinMs = 2000): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (child.exitCode === null && child.signalCode === null && Date.now() < deadline) await wait(10);
  return child.exitCode !== null || child.signalCode !== null;
}

const netnsResources = (names: readonly string[]) => names.map((id) => ({ type: 'netns', id }));

describe('local lab: teardown of namespaces', () => {
  it('stops what runs inside the namespaces and deletes all three, leaving a process outside alone', async () => {
    const names = await makeNamespaces();
    const inside = [await startSleep(names[0]), await startSleep(names[2])];
    const outside = await startSleep();
    expect(await teardownResources(netnsResources(names))).toEqual([undefined, undefined, undefined]);
    for (const name of names) expect(existsSync(netnsFile(name)), name).toBe(false);
    for (const child of inside) {
      expect(await exited(child)).toBe(true);
      expect(child.signalCode).toBe('SIGTERM');
    }
    expect(await exited(outside, 200)).toBe(false);
    expect(readFileSync(`/proc/${outside.pid}/stat`, 'utf8')).toMatch(/^\d+ \(sleep\) [^Z]/);
  });

  it('starts one ip process for three namespaces, and none when they are gone', async () => {
    const names = await makeNamespaces();
    await startSleep(names[0]);
    await startSleep(names[1]);
    const ip = ipShim();
    expect(await teardownResources(netnsResources(names))).toEqual([undefined, undefined, undefined]);
    expect(ip.calls()).toEqual(['-force -batch -']);
    expect(ip.input()).toBe(names.map((name) => `netns del ${name}\n`).join(''));
    for (const name of names) expect(existsSync(netnsFile(name)), name).toBe(false);
    // Gone already: success, with no process at all.
    expect(await teardownResources(netnsResources(names))).toEqual([undefined, undefined, undefined]);
    await deleteNetns(names[0]!);
    expect(ip.calls()).toEqual(['-force -batch -']);
  });

  it('gives a namespace that cannot be deleted its own error and deletes the others', async () => {
    const names = await makeNamespaces();
    const inside = await startSleep(names[1]);
    // A directory where the namespace file would be: `ip netns del` cannot unlink it (EISDIR), a real failure.
    const stuck = names[0]!.replace(/-a$/, '-stuck');
    mkdirSync(netnsFile(stuck));
    cleanups.push(() => rmSync(netnsFile(stuck), { recursive: true, force: true }));
    const ip = ipShim();
    const resources = netnsResources([names[0]!, stuck, names[1]!, 'eth0', names[2]!]);
    const outcomes = await teardownResources(resources);
    expect(outcomes[0]).toBeUndefined();
    expect(outcomes[1]?.message).toBe(`ip netns del ${stuck} failed (exit 1): Cannot remove namespace file "${netnsFile(stuck)}": Is a directory`);
    expect(outcomes[2]).toBeUndefined();
    expect(outcomes[3]?.message).toMatch(/refusing to delete netns "eth0": not a netbench name/);
    expect(outcomes[4]).toBeUndefined();
    expect(ip.calls()).toEqual(['-force -batch -']);
    for (const name of names) expect(existsSync(netnsFile(name)), name).toBe(false);
    expect(existsSync(netnsFile(stuck))).toBe(true);
    expect(await exited(inside)).toBe(true);
    // The single delete other callers use says the same.
    await expect(deleteNetns(stuck)).rejects.toThrow(`ip netns del ${stuck} failed (exit 1): Cannot remove namespace file`);
  });

  it('asks ip netns pids when /proc cannot be listed', async () => {
    const names = await makeNamespaces();
    const inside = await startSleep(names[0]);
    const ip = ipShim();
    procUnreadable.on = true;
    expect(await teardownResources(netnsResources(names))).toEqual([undefined, undefined, undefined]);
    expect([...ip.calls()].sort()).toEqual([...names.map((name) => `netns pids ${name}`), '-force -batch -'].sort());
    expect(await exited(inside)).toBe(true);
    for (const name of names) expect(existsSync(netnsFile(name)), name).toBe(false);
  });
});
