import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSshHost } from './connect-ssh-host.js';
import type { SshHostOptions } from './ssh-host-options.js';
import { keygen, startTestSshd, type TestSshd } from './test-support/test-sshd.js';

const PASSPHRASE = 'correct horse battery staple';
let sshd: TestSshd;
let bastion: TestSshd;
let lockedKey: string;

const base = (over: Partial<SshHostOptions> = {}): SshHostOptions => ({
  id: 'h',
  name: 'h',
  cloud: 'static',
  internalIp: '127.0.0.1',
  address: '127.0.0.1',
  port: sshd.port,
  user: 'root',
  privateKeyPath: sshd.clientKey,
  hostKey: { mode: 'known-hosts', file: sshd.knownHosts },
  connectRetry: { attempts: 3, initialDelayMs: 100, maxDelayMs: 400 },
  ...over,
});

const pidAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
async function until(check: () => boolean | Promise<boolean>, ms = 15_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}
const firstLine = (stream: NodeJS.ReadableStream) => new Promise<string>((resolve) => stream.once('data', (c: Buffer) => resolve(c.toString().trim())));

beforeAll(async () => {
  const dir = (await import('node:fs')).mkdtempSync(join((await import('node:os')).tmpdir(), `nbt-ssh-keys-${process.pid}-`));
  lockedKey = join(dir, 'locked');
  await keygen(lockedKey, PASSPHRASE);
  [sshd, bastion] = await Promise.all([startTestSshd({ extraKeys: [readFileSync(`${lockedKey}.pub`, 'utf8')], maxSessions: 4 }), startTestSshd()]);
});
afterAll(async () => {
  await Promise.all([sshd?.stop(), bastion?.stop()]);
});

describe('connecting', () => {
  it('reports a host that refuses connections after the configured attempts, without hanging', async () => {
    const closed = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const port = (s.address() as { port: number }).port;
        s.close(() => resolve(port));
      });
    });
    const began = Date.now();
    await expect(connectSshHost(base({ port: closed }))).rejects.toThrow(
      new RegExp(`^host h \\(127\\.0\\.0\\.1:${closed}\\) unreachable after 3 attempts over \\d+\\.\\d s: .*ECONNREFUSED`),
    );
    const took = Date.now() - began;
    expect(took).toBeGreaterThanOrEqual(300); // waited 100 + 200 ms between attempts
    expect(took).toBeLessThan(3000);
  });

  it('gives up on a server that accepts but never speaks SSH (bounded by readyTimeoutMs)', async () => {
    const sockets: Socket[] = [];
    const silent: Server = await new Promise((resolve) => {
      const s = createServer((socket) => sockets.push(socket)).listen(0, '127.0.0.1', () => resolve(s));
    });
    const began = Date.now();
    await expect(
      connectSshHost(base({ port: (silent.address() as { port: number }).port, readyTimeoutMs: 400, connectRetry: { attempts: 2, initialDelayMs: 50, maxDelayMs: 50 } })),
    ).rejects.toThrow(/unreachable after 2 attempts .*Timed out while waiting for handshake/);
    expect(Date.now() - began).toBeLessThan(3000);
    for (const socket of sockets) socket.destroy();
    silent.close();
  });

  it('fails at once, clearly, when the server refuses the key', async () => {
    const began = Date.now();
    await expect(connectSshHost(base({ privateKeyPath: `${lockedKey}-missing` }))).rejects.toThrow(/cannot read private key .*locked-missing.*ENOENT/);
    const stranger = join(sshd.dir, 'stranger');
    await keygen(stranger);
    await expect(connectSshHost(base({ privateKeyPath: stranger }))).rejects.toThrow(/^authentication as root on host h \(127\.0\.0\.1:\d+\) failed \(tried the private key\)/);
    expect(Date.now() - began).toBeLessThan(3000);
  });

  it('uses a passphrase-protected key, and says when the passphrase is wrong or missing (never printing it)', async () => {
    const host = await connectSshHost(base({ privateKeyPath: lockedKey, passphrase: PASSPHRASE }));
    expect((await host.exec(['echo', 'unlocked'])).stdout).toBe('unlocked\n');
    await host.close();
    const wrong = await connectSshHost(base({ privateKeyPath: lockedKey, passphrase: `${PASSPHRASE}!` })).catch((e: Error) => e);
    expect(String(wrong)).toMatch(/wrong passphrase for private key .*locked/);
    expect(String(wrong)).not.toContain(PASSPHRASE);
    await expect(connectSshHost(base({ privateKeyPath: lockedKey }))).rejects.toThrow(/is protected by a passphrase/);
  });

  it('authenticates with an ssh-agent when no key is given', async () => {
    const socket = join(sshd.dir, 'agent.sock');
    const agent: ChildProcess = spawn('ssh-agent', ['-D', '-a', socket], { stdio: 'ignore' });
    try {
      await until(() => {
        try {
          execFileSync('ssh-add', ['-l'], { env: { SSH_AUTH_SOCK: socket }, stdio: 'ignore' });
          return true;
        } catch (e) {
          return (e as { status?: number }).status === 1;
        }
      });
      execFileSync('ssh-add', [sshd.clientKey], { env: { SSH_AUTH_SOCK: socket }, stdio: 'ignore' });
      const host = await connectSshHost(base({ privateKeyPath: undefined, agent: socket }));
      expect((await host.exec(['echo', 'agent'])).stdout).toBe('agent\n');
      await host.close();
      await expect(connectSshHost(base({ privateKeyPath: undefined, agent: false }))).rejects.toThrow(/no way to authenticate as root/);
    } finally {
      agent.kill();
    }
  });

  it('reaches a host through a bastion, one connection to each', async () => {
    const [before, beforeBastion] = [sshd.acceptedLogins(), bastion.acceptedLogins()];
    const host = await connectSshHost(
      base({
        jump: { address: '127.0.0.1', port: bastion.port, user: 'root', privateKeyPath: bastion.clientKey, hostKey: { mode: 'known-hosts', file: bastion.knownHosts } },
      }),
    );
    expect((await Promise.all([host.exec(['echo', 'a']), host.exec(['echo', 'b'])])).map((r) => r.stdout)).toEqual(['a\n', 'b\n']);
    await host.close();
    expect([sshd.acceptedLogins() - before, bastion.acceptedLogins() - beforeBastion]).toEqual([1, 1]);
    expect(sshd.log()).toMatch(/Accepted publickey for root from 127\.0\.0\.1/);
  });

  it('through a bastion, reports a target the bastion cannot reach', async () => {
    await expect(
      connectSshHost(
        base({
          port: 1,
          connectRetry: { attempts: 2, initialDelayMs: 50, maxDelayMs: 50 },
          jump: { address: '127.0.0.1', port: bastion.port, user: 'root', privateKeyPath: bastion.clientKey, hostKey: { mode: 'known-hosts', file: bastion.knownHosts } },
        }),
      ),
    ).rejects.toThrow(/host h \(127\.0\.0\.1:1 via bastion 127\.0\.0\.1:\d+\) unreachable after 2 attempts .*the bastion could not reach 127\.0\.0\.1:1/);
  });
});

describe('the connection over time', () => {
  it('close() stops what is still running on the host', async () => {
    const host = await connectSshHost(base());
    const proc = host.spawn(['sh', '-c', 'echo $$; exec sleep 60']);
    const pid = Number(await firstLine(proc.stdout));
    expect(pidAlive(pid)).toBe(true);
    await host.close();
    expect(await until(() => !pidAlive(pid))).toBe(true);
    await expect(host.exec(['true'])).rejects.toThrow(/already closed/);
    await host.close(); // idempotent
  });

  it('the reaper stops only processes carrying its session mark, never a recycled pid', async () => {
    const host = await connectSshHost(base());
    const ours = host.spawn(['sh', '-c', 'echo $$; exec sleep 60']);
    const pid = Number(await firstLine(ours.stdout));
    const foreign = spawn('sleep', ['60'], { stdio: 'ignore' });
    const session = readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .find((v) => v.startsWith('NETBENCH_SSH_SESSION='))!
      .split('=')[1]!;
    appendFileSync(join(session, 'pids'), `${foreign.pid}\n`);
    await host.close();
    expect(await until(() => !pidAlive(pid))).toBe(true);
    expect(pidAlive(foreign.pid!)).toBe(true);
    expect(existsSync(session)).toBe(false);
    foreign.kill();
  });

  it('when the connection drops, the host stops our processes; the next command reconnects', async () => {
    const host = await connectSshHost(base());
    const logins = sshd.acceptedLogins();
    const proc = host.spawn(['sh', '-c', 'echo $$; exec sleep 60']);
    const pid = Number(await firstLine(proc.stdout));
    sshd.dropConnections();
    await expect(proc.exited).rejects.toThrow(/connection to host h .* (closed|failed)/);
    expect(await until(() => !pidAlive(pid))).toBe(true);
    expect((await host.exec(['echo', 'again'])).stdout).toBe('again\n');
    expect(sshd.acceptedLogins()).toBe(logins + 1);
    await host.close();
  });

  it('waits for a free channel when sshd MaxSessions is reached', async () => {
    const host = await connectSshHost(base()); // MaxSessions 4: the reaper holds one
    const sleepers = [0, 1, 2].map(() => host.spawn(['sleep', '30']));
    const waiting = host.exec(['echo', 'late']);
    await new Promise((r) => setTimeout(r, 500));
    sleepers[0]!.kill();
    expect((await waiting).stdout).toBe('late\n');
    await host.close();
    for (const s of sleepers) await s.exited.catch(() => undefined);
  });
});
