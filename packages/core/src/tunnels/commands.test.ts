import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { daemonArgv, makeDirArgv, teardownArgv, writePrivateArgv } from './commands.js';

// The scripts run for real: /bin/sh, setsid, a sleeping "daemon". Needs /dev/shm (any Linux).
const run = (argv: readonly string[], input?: string) => spawnSync(argv[0]!, argv.slice(1), { encoding: 'utf8', ...(input !== undefined ? { input } : {}) });
const alive = (pid: number) => existsSync(`/proc/${pid}`) && !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
const root = () => `/dev/shm/netbench-unit-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !check(); i += 1) await new Promise((r) => setTimeout(r, 20));
}

describe.skipIf(!existsSync('/dev/shm'))('the tunnel shell scripts', () => {
  test('a private directory and file: 0700 and 0600; values are arguments, never shell text', () => {
    const base = root();
    const dir = `${base}/x-a`;
    expect(run(makeDirArgv(base, dir)).status).toBe(0);
    const odd = `${dir}/$(touch pwned); touch pwned; echo`;
    expect(run(writePrivateArgv(odd), 'secret\n').status).toBe(0);
    expect(readFileSync(odd, 'utf8')).toBe('secret\n');
    expect(existsSync('pwned') || existsSync(`${dir}/pwned`)).toBe(false);
    expect(run(['stat', '-c', '%a', base, dir, odd]).stdout.split('\n').slice(0, 3)).toEqual(['700', '700', '600']);
    expect(run(teardownArgv({ dir, iface: 'nbwunit0000a', kernelLink: false })).status).toBe(0);
    expect(existsSync(base)).toBe(false);
  });

  test('a daemon started detached is recorded by pid and start time, and teardown stops it and removes everything', async () => {
    const base = root();
    const dir = `${base}/t-a`;
    run(makeDirArgv(base, dir));
    const started = run(daemonArgv(`${dir}/sleep.pid`, `${dir}/sleep.log`, ['sleep', '60']));
    expect(started.status).toBe(0);
    await until(() => existsSync(`${dir}/sleep.pid`));
    const [pid, start] = readFileSync(`${dir}/sleep.pid`, 'utf8').trim().split(' ').map(Number);
    await until(() => readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('sleep'));
    expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8')).toBe('sleep\u000060\u0000');
    expect(start).toBeGreaterThan(0);
    // Another run's socket path is passed through as a plain argument too.
    writeFileSync(`${base}/fake.sock`, '');
    expect(run(teardownArgv({ dir, iface: 'nbwunit0000a', kernelLink: false, socket: `${base}/fake.sock` })).status).toBe(0);
    await until(() => !alive(pid!));
    expect(alive(pid!)).toBe(false);
    expect(existsSync(base)).toBe(false);
  });

  test('a pid file whose start time no longer matches (the pid was reused) kills nothing', () => {
    const base = root();
    const dir = `${base}/t-b`;
    mkdirSync(dir, { recursive: true });
    // Our own test process, with a wrong start time: it must survive.
    writeFileSync(`${dir}/x.pid`, `${process.pid} 1\n`);
    expect(run(teardownArgv({ dir, iface: 'nbwunit0000b', kernelLink: false })).status).toBe(0);
    expect(alive(process.pid)).toBe(true);
    expect(existsSync(dir)).toBe(false);
  });

  test('undoing what is already gone succeeds (cleanup after teardown)', () => {
    expect(run(teardownArgv({ dir: `${root()}/gone-a`, iface: 'nbwunit0000c', kernelLink: false })).status).toBe(0);
  });
});
