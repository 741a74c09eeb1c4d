import { existsSync, readFileSync, rmSync } from 'node:fs';
import { TimeoutError } from '@netbench/plugin-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSshHost } from './connect-ssh-host.js';
import type { SshHost } from './ssh-host-options.js';
import { HOSTILE_ARGS } from './test-support/hostile-args.js';
import { startTestSshd, type TestSshd } from './test-support/test-sshd.js';

const MARKER = '/tmp/nb-pwned';
let sshd: TestSshd;
let host: SshHost;

const alive = async (pid: number) => (await host.exec(['kill', '-0', String(pid)])).code === 0;
const until = async (check: () => Promise<boolean>, ms = 15_000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
};

beforeAll(async () => {
  rmSync(MARKER, { force: true });
  sshd = await startTestSshd();
  host = await connectSshHost({
    id: 'web1',
    name: 'web1',
    cloud: 'static',
    internalIp: '10.0.0.5',
    address: '127.0.0.1',
    port: sshd.port,
    user: 'root',
    privateKeyPath: sshd.clientKey,
    hostKey: { mode: 'known-hosts', file: sshd.knownHosts },
    labels: { rack: 'r1' },
  });
});

afterAll(async () => {
  await host?.close();
  await sshd?.stop();
  rmSync(MARKER, { force: true });
});

describe('SshHost commands', () => {
  it('describes the host as given, how its key was verified, and (shortly after connecting) its OS', async () => {
    expect(host).toMatchObject({ id: 'web1', name: 'web1', cloud: 'static', internalIp: '10.0.0.5', labels: { rack: 'r1' }, hostKeyVerification: 'known-hosts' });
    expect(await until(async () => host.os !== undefined)).toBe(true);
    expect(host.os).toBe(/^PRETTY_NAME="?([^"\n]*)/m.exec(readFileSync('/etc/os-release', 'utf8'))![1]);
  });

  it('tells the OS, congestion control and CPU count it read as it connected, with no command of its own', async () => {
    const nproc = (await host.exec(['nproc'])).stdout.trim();
    expect(await host.facts!()).toEqual({
      os: /^PRETTY_NAME="?([^"\n]*)/m.exec(readFileSync('/etc/os-release', 'utf8'))![1],
      congestionControl: readFileSync('/proc/sys/net/ipv4/tcp_congestion_control', 'utf8').trim(),
      cpuCount: nproc,
    });
  });

  it('passes hostile argument values verbatim, one argument each, running nothing', async () => {
    const result = await host.exec(['printf', '%s\\0', ...HOSTILE_ARGS]);
    expect(result.code).toBe(0);
    expect(result.stdout.split('\0').slice(0, -1)).toEqual(HOSTILE_ARGS);
    expect(result.stderr).toBe('');
    expect(existsSync(MARKER)).toBe(false);
  });

  it('reports exit codes and stderr, and 127 for a missing program', async () => {
    expect(await host.exec(['sh', '-c', 'echo out; echo err >&2; exit 3'])).toMatchObject({ code: 3, signal: null, stdout: 'out\n', stderr: 'err\n' });
    const missing = await host.exec(['no-such-program-nb']);
    expect(missing.code).toBe(127);
    expect(missing.stderr).toMatch(/not found/);
  });

  it('feeds stdin and sets the environment', async () => {
    expect((await host.exec(['cat'], { stdin: 'hello\nworld' })).stdout).toBe('hello\nworld');
    expect((await host.exec(['sh', '-c', 'printf %s "$NB_VALUE"'], { env: { NB_VALUE: "a'b $(x)" } })).stdout).toBe("a'b $(x)");
  });

  it('kills on timeout, remote process included', async () => {
    rmSync('/tmp/nbt-ssh-timeout.pid', { force: true });
    const began = Date.now();
    await expect(host.exec(['sh', '-c', 'echo $$ > /tmp/nbt-ssh-timeout.pid; exec sleep 37'], { timeoutMs: 500 })).rejects.toBeInstanceOf(TimeoutError);
    expect(Date.now() - began).toBeLessThan(4000);
    // Killed before or after it started: either it never wrote its pid, or that process is gone.
    const written = (await host.exec(['cat', '/tmp/nbt-ssh-timeout.pid'])).stdout.trim();
    if (written) expect(await until(async () => !(await alive(Number(written))))).toBe(true);
    expect(await until(async () => (await host.exec(['pgrep', '-f', '^sleep 37$'])).code === 1)).toBe(true);
  });

  it('stops on abort, remote process included', async () => {
    const controller = new AbortController();
    const running = host.exec(['sleep', '38'], { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('stop now')), 300);
    await expect(running).rejects.toThrow('stop now');
    expect(await until(async () => (await host.exec(['pgrep', '-f', '^sleep 38$'])).code === 1)).toBe(true);
  });

  it('spawns with streams, a pid, and kill by signal', async () => {
    const proc = host.spawn(['sh', '-c', 'echo ready; exec sleep 30']);
    const first = await new Promise<string>((resolve) => proc.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString())));
    expect(first).toBe('ready\n');
    expect(await until(async () => proc.pid !== undefined)).toBe(true);
    expect(await alive(proc.pid!)).toBe(true);
    proc.kill('SIGTERM');
    expect(await proc.exited).toMatchObject({ code: null, signal: 'SIGTERM', stdout: 'ready\n' });
    expect(await until(async () => !(await alive(proc.pid!)))).toBe(true);
  });

  it('kills the whole process group (a server and the children it forked)', async () => {
    const proc = host.spawn(['sh', '-c', 'sleep 31 & echo $!; wait']);
    const child = Number(await new Promise<string>((resolve) => proc.stdout.once('data', (c: Buffer) => resolve(c.toString()))));
    proc.kill('SIGTERM');
    await proc.exited;
    expect(await until(async () => !(await alive(child)))).toBe(true);
  });

  it('uploads a file with its mode over SFTP', async () => {
    const path = `/tmp/nbt-ssh-upload-${process.pid}`;
    await host.upload!(path, 'line 1\n', { mode: 0o640 });
    expect((await host.exec(['stat', '-c', '%a %s', path])).stdout.trim()).toBe('640 7');
    expect((await host.exec(['cat', path])).stdout).toBe('line 1\n');
    await host.exec(['rm', '-f', path]);
  });

  it('never loses the exit status or output of quick commands run side by side', async () => {
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => host.exec(['sh', '-c', `echo out${i}; echo err${i} >&2; exit ${i % 3}`])));
    results.forEach((result, i) => expect(result).toMatchObject({ code: i % 3, stdout: `out${i}\n`, stderr: `err${i}\n` }));
  });

  it('runs everything over one connection', async () => {
    await Promise.all(Array.from({ length: 8 }, () => host.exec(['true'])));
    expect(sshd.acceptedLogins()).toBe(1);
  });
});
