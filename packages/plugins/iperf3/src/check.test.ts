import { type Host, processHost, ToolMissingError, UnsupportedError } from '@netbench/plugin-api';
import { aptSudoRefusal, pathWithout, type SudoState, sudoState, testTrialContext, withPath } from '@netbench/plugin-api/testing';
import { installAptPackage } from '@netbench/plugin-api/tool-kit';
import { describe, expect, it } from 'vitest';
import { checkIperf3, readIperf3Version } from './check.js';

const host = (prefix: string[] = []) => processHost({ id: 'h', name: 'h', cloud: 'local', internalIp: '127.0.0.1', prefix });
// Drop to the `nobody` user for commands, as a non-root netbench would run.
const NOBODY = ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'];

describe('readIperf3Version', () => {
  it('reads version and build features', () => {
    const text = [
      'iperf 3.12 (cJSON 1.7.15)',
      'Linux vm 6.18.44 #1 SMP PREEMPT_DYNAMIC x86_64',
      'Optional features available: CPU affinity setting, IPv6 flow label, SCTP, TCP congestion algorithm setting, sendfile / zerocopy, socket pacing, authentication',
    ].join('\n');
    expect(readIperf3Version(text)).toEqual({
      version: '3.12',
      features: { bidir: true, zerocopy: true, sctp: true, cpu_affinity: true, tcp_congestion: true, pacing: true },
    });
    expect(readIperf3Version('iperf 3.1.3\nOptional features available: CPU affinity setting')?.features).toMatchObject({ bidir: false, zerocopy: false, cpu_affinity: true });
    expect(readIperf3Version('iperf version 2.1.8 (12 August 2022) pthreads')).toBeUndefined();
  });
});

describe('checkIperf3', () => {
  it('reports the installed version and features', async () => {
    const { ctx, dispose } = testTrialContext();
    try {
      const info = await checkIperf3(host(), ctx);
      expect(info.version).toBe('3.12');
      expect(info.features).toMatchObject({ bidir: true, zerocopy: true });
      expect(info.command).toBe('iperf3');
    } finally {
      dispose();
    }
  });

  it('throws ToolMissingError when iperf3 is absent', async () => {
    const { ctx, dispose } = testTrialContext();
    try {
      await expect(checkIperf3(host(['env', 'PATH=/nonexistent']), ctx)).rejects.toBeInstanceOf(ToolMissingError);
      await expect(checkIperf3(host(['env', 'PATH=/nonexistent']), ctx)).rejects.toThrow('iperf3 is not installed on host h');
    } finally {
      dispose();
    }
  });
});

describe('installAptPackage', () => {
  it('as root: a no-op success for the installed iperf3', async () => {
    const { ctx, dispose } = testTrialContext();
    try {
      await expect(installAptPackage(host(), 'iperf3', ctx)).resolves.toBeUndefined();
    } finally {
      dispose();
    }
  }, 180_000);

  // Whatever this machine has: sudo absent, sudo asking for a password, or passwordless sudo (then it installs).
  it('not root: goes through sudo -n and says clearly why it cannot', async () => {
    const nobody = host(NOBODY);
    await expectInstallAs(nobody, await sudoState(nobody));
  }, 180_000);

  it('not root, no sudo on the PATH: says sudo is not there', async () => {
    const noSudo = pathWithout(['sudo']);
    try {
      const nobody = withPath(host(NOBODY), noSudo.path);
      expect(await sudoState(nobody)).toBe('absent');
      await expectInstallAs(nobody, 'absent');
    } finally {
      noSudo.dispose();
    }
  }, 60_000);
});

/** Installing iperf3 as a normal user ends as this sudo state says: the right refusal, or an install. */
async function expectInstallAs(nobody: Host, state: SudoState): Promise<void> {
  const { ctx, dispose } = testTrialContext();
  try {
    const attempt = installAptPackage(nobody, 'iperf3', ctx);
    const refusal = aptSudoRefusal(state, 'iperf3', 'h');
    if (refusal === undefined) return await expect(attempt).resolves.toBeUndefined();
    await expect(attempt).rejects.toBeInstanceOf(UnsupportedError);
    await expect(attempt).rejects.toThrow(refusal);
  } finally {
    dispose();
  }
}
