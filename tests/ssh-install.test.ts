import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectSshHost } from '@netbench/core';
import type { PluginContext, SshHost } from '@netbench/plugin-api';
import { UnsupportedError } from '@netbench/plugin-api';
import { aptSudoRefusal, pathWithout, type SudoState, sudoState, withPath } from '@netbench/plugin-api/testing';
import iperf3 from '@netbench/plugin-iperf3';
import netperf from '@netbench/plugin-netperf';
import ping from '@netbench/plugin-ping';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSshd, type TestSshd } from '../packages/core/src/transport/ssh/test-support/test-sshd.js';

// Tool installation over SSH, as root and as a normal user. A throw-away
// account (removed afterwards) logs in to a real sshd on 127.0.0.1. Without
// sudo, or with sudo asking the account for a password, the installs must
// say which; scripts/test.sh installs sudo, so CI sees the latter.
describe('installing tools over SSH', () => {
  const user = `nbtssh${process.pid % 100000}`;
  let sshd: TestSshd;
  let runDir: string;
  const hosts: SshHost[] = [];
  const ctx = (): PluginContext => ({ runId: 'ssh-install', runDir, signal: AbortSignal.timeout(240_000), log: { debug() {}, info() {}, warn() {} } });
  const connect = async (login: string) => {
    const host = await connectSshHost({
      id: login,
      name: login,
      cloud: 'static',
      internalIp: '127.0.0.1',
      address: '127.0.0.1',
      port: sshd.port,
      user: login,
      privateKeyPath: sshd.clientKey,
      hostKey: { mode: 'known-hosts', file: sshd.knownHosts },
    });
    hosts.push(host);
    return host;
  };

  beforeAll(async () => {
    runDir = mkdtempSync(join(tmpdir(), 'nbt-ssh-install-'));
    execFileSync('useradd', ['--system', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/bin/sh', user]);
    // '*' instead of useradd's '!': sshd (without PAM) refuses locked accounts even for keys.
    execFileSync('usermod', ['-p', '*', user]);
    sshd = await startTestSshd();
    // The user reads authorized_keys itself (sshd drops to its uid for that).
    chmodSync(sshd.dir, 0o755);
    chmodSync(join(sshd.dir, 'authorized_keys'), 0o644);
  });

  afterAll(async () => {
    await Promise.all(hosts.map((h) => h.close()));
    await sshd?.stop();
    try {
      execFileSync('userdel', [user]);
    } catch {
      /* never created */
    }
    rmSync(runDir, { recursive: true, force: true });
  });

  it('as root: apt-get runs directly; installing what is there is a no-op success', async () => {
    const root = await connect('root');
    await expect(ping.install!(root, ctx())).resolves.toBeUndefined();
    await expect(netperf.install!(root, ctx())).resolves.toBeUndefined();
  }, 300_000);

  // Whatever this machine has (the state is asked of sudo itself, over the same SSH login), and, on a PATH
  // without sudo, the no-sudo branch too: both run on every machine.
  it('as a normal user: sudo -n is tried, and the error says why it cannot work', async () => {
    const normal = await connect(user);
    expect((await normal.exec(['id', '-un'])).stdout.trim()).toBe(user);
    // sshd says "Could not chdir to home directory /nonexistent" before every command: not the command's stderr.
    expect((await normal.exec(['sh', '-c', 'echo err >&2'])).stderr).toBe('err\n');
    await expectInstalls(normal, await sudoState(normal));
    const noSudo = pathWithout(['sudo']);
    try {
      const withoutSudo = withPath(normal, noSudo.path);
      expect(await sudoState(withoutSudo)).toBe('absent');
      await expectInstalls(withoutSudo, 'absent');
    } finally {
      noSudo.dispose();
    }
  }, 180_000);

  it('checks see the tools over SSH as the normal user, versions included', async () => {
    const normal = hosts.find((h) => h.name === user) ?? (await connect(user));
    const info = await ping.check(normal, ctx());
    expect(info.version).toMatch(/^s?\d{8}|^\d/);
    expect((await iperf3.check(normal, ctx())).version).toMatch(/^3\./);
  }, 120_000);
});

/** Each plugin's install as the normal user ends as this sudo state says (passwordless sudo: it installs). */
async function expectInstalls(normal: SshHost, state: SudoState): Promise<void> {
  const ctx: PluginContext = { runId: 'ssh-install', runDir: tmpdir(), signal: AbortSignal.timeout(240_000), log: { debug() {}, info() {}, warn() {} } };
  const netperfRefusal =
    state === 'absent'
      ? /^cannot install netperf on host nbtssh\d+: not root and sudo is not installed; install netperf by hand$/
      : state === 'needs-password'
        ? /^cannot install netperf on host nbtssh\d+: sudo needs a password \(netbench runs sudo -n, never prompts\); .*install netperf by hand$/
        : undefined;
  for (const [tool, install, refusal] of [
    ['ping', ping.install!, aptSudoRefusal(state, 'iputils-ping', normal.name)],
    ['iperf3', iperf3.install!, aptSudoRefusal(state, 'iperf3', normal.name)],
    ['netperf', netperf.install!, netperfRefusal],
  ] as const) {
    const error = await install(normal, ctx).then(
      () => undefined,
      (e: unknown) => e,
    );
    if (refusal === undefined) {
      expect(error, tool).toBeUndefined();
      continue;
    }
    expect(error, `${tool} (sudo ${state})`).toBeInstanceOf(UnsupportedError);
    expect((error as Error).message, `${tool} (sudo ${state})`).toMatch(refusal);
  }
}
