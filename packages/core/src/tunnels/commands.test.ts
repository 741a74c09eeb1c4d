import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { asOtherUser, isRoot, OTHER_USER, otherUid } from '../run-id/test-support/other-user.js';
import { daemonArgv, makeDirArgv, teardownArgv, writePrivateArgv } from './commands.js';
import { wgKeyArgv } from './wireguard.js';

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
    expect(run(makeDirArgv(base, dir)).status).toBe(0);
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

/** A daemon of the run's: a real process, with the pid file the daemon wrapper writes for it. */
async function victim(dir: string): Promise<{ pid: number; pidFile: string }> {
  const started = run(daemonArgv(`${dir}/victim.pid`, `${dir}/victim.log`, ['sleep', '60']));
  expect(started.status).toBe(0);
  await until(() => existsSync(`${dir}/victim.pid`) && readFileSync(`${dir}/victim.pid`, 'utf8').includes(' '));
  const pid = Number(readFileSync(`${dir}/victim.pid`, 'utf8').split(' ')[0]);
  await until(() => readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('sleep'));
  return { pid, pidFile: `${dir}/victim.pid` };
}
const mode = (path: string) => (statSync(path).mode & 0o7777).toString(8);
const wg = spawnSync('wg', ['--version']).status === 0;

// Anyone may write in /dev/shm: a directory netbench did not make is never used, nor acted on.
describe.skipIf(!existsSync('/dev/shm'))('tunnel directories someone else could have made', () => {
  test('a root or end directory others may write in, or a link, is refused with the path, what was found and what to do', () => {
    const base = root();
    const dir = `${base}/x-a`;
    try {
      mkdirSync(base);
      chmodSync(base, 0o777);
      const open = run(makeDirArgv(base, dir));
      expect(open.status).toBe(3);
      expect(open.stderr).toContain(
        `refusing ${base}: its mode 0777 lets others write in it; netbench makes it itself, owned by the user running it (uid ${process.geteuid!()}), writable by no one else.`,
      );
      expect(open.stderr).toContain(`remove it (rm -rf -- ${base}) and try again`);
      expect(existsSync(dir)).toBe(false);
      chmodSync(base, 0o700);
      mkdirSync(dir, { mode: 0o755 });
      chmodSync(dir, 0o755);
      expect(run(makeDirArgv(base, dir)).stderr).toContain(`refusing ${dir}: its mode is 0755, not 0700`);
      rmSync(dir, { recursive: true });
      symlinkSync(base, dir);
      expect(run(makeDirArgv(base, dir)).stderr).toContain(`refusing ${dir}: it is a symbolic link`);
      // Our own, as netbench leaves it between two attempts: used again.
      rmSync(dir);
      expect(run(makeDirArgv(base, dir)).status).toBe(0);
      expect(run(makeDirArgv(base, dir)).status).toBe(0);
      expect([mode(base), mode(dir)]).toEqual(['700', '700']);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });

  test('a private file is always a new one: a link or a file already there is replaced, never written through', () => {
    const base = root();
    const dir = `${base}/w-a`;
    try {
      expect(run(makeDirArgv(base, dir)).status).toBe(0);
      writeFileSync(`${base}/target`, 'untouched\n');
      symlinkSync(`${base}/target`, `${dir}/run.lock`);
      expect(run(writePrivateArgv(`${dir}/run.lock`), 'lock\n').status).toBe(0);
      expect(readFileSync(`${base}/target`, 'utf8')).toBe('untouched\n');
      expect(lstatSync(`${dir}/run.lock`).isFile()).toBe(true);
      expect([readFileSync(`${dir}/run.lock`, 'utf8'), mode(`${dir}/run.lock`)]).toEqual(['lock\n', '600']);
      writeFileSync(`${dir}/swanctl.conf`, 'old\n', { mode: 0o666 });
      chmodSync(`${dir}/swanctl.conf`, 0o666);
      expect(run(writePrivateArgv(`${dir}/swanctl.conf`), 'new\n').status).toBe(0);
      expect([readFileSync(`${dir}/swanctl.conf`, 'utf8'), mode(`${dir}/swanctl.conf`)]).toEqual(['new\n', '600']);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });

  test.skipIf(!wg)('a WireGuard private key goes into a new 0600 file, not into one already there', () => {
    const base = root();
    const dir = `${base}/k-a`;
    try {
      expect(run(makeDirArgv(base, dir)).status).toBe(0);
      writeFileSync(`${dir}/private.key`, '', { mode: 0o666 });
      chmodSync(`${dir}/private.key`, 0o666);
      const made = run(wgKeyArgv(dir));
      expect(made.status, made.stderr).toBe(0);
      expect(made.stdout).toMatch(/^[A-Za-z0-9+/]{43}=\n$/);
      expect(mode(`${dir}/private.key`)).toBe('600');
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });

  // Root only: only root can make a directory another user owns. The user is added with useradd when absent.
  test.skipIf(!isRoot)('a run directory another local user made first (with an end and an empty key file in it) is refused; no key is written there', () => {
    const base = root();
    const dir = `${base}/wg-a`;
    try {
      const made = asOtherUser(['sh', '-c', 'mkdir -m 0777 -- "$1" "$2" && touch "$2/private.key" && chmod 0666 "$2/private.key"', 'sh', base, dir]);
      expect(made.status, made.stderr).toBe(0);
      const refused = run(makeDirArgv(base, dir));
      expect(refused.status).toBe(3);
      expect(refused.stderr).toContain(`refusing ${base}: it is owned by ${OTHER_USER} (uid ${otherUid()}) with mode 0777; netbench makes it itself`);
      expect(refused.stderr).toContain(`rm -rf -- ${base}`);
      expect(readFileSync(`${dir}/private.key`, 'utf8')).toBe('');
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });

  test.skipIf(!isRoot)('teardown acts on no pid file in a directory another user made: the process it names lives on', async () => {
    // The named process is root's own (a daemon of some run); the pid file, start time and all, is the other user's.
    const mine = root();
    const base = root();
    const dir = `${base}/t-a`;
    try {
      expect(run(makeDirArgv(mine, `${mine}/v-a`)).status).toBe(0);
      const { pid, pidFile } = await victim(`${mine}/v-a`);
      const forged = asOtherUser(['sh', '-c', 'mkdir -m 0777 -- "$1" "$2" && cat > "$2/wireguard-go.pid"', 'sh', base, dir], readFileSync(pidFile, 'utf8'));
      expect(forged.status, forged.stderr).toBe(0);
      const refused = run(teardownArgv({ dir, iface: 'nbwunit0000d', kernelLink: false }));
      expect(refused.status).toBe(3);
      expect(refused.stderr).toContain(`refusing ${base}: it is owned by ${OTHER_USER}`);
      expect(alive(pid)).toBe(true);
      expect(existsSync(`${dir}/wireguard-go.pid`)).toBe(true);
      expect(run(teardownArgv({ dir: `${mine}/v-a`, iface: 'nbwunit0000e', kernelLink: false })).status).toBe(0);
      await until(() => !alive(pid));
      expect(alive(pid)).toBe(false);
    } finally {
      rmSync(base, { recursive: true, force: true });
      rmSync(mine, { recursive: true, force: true });
    }
  });
});
