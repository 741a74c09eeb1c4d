import { type Host, processHost, ToolMissingError, UnsupportedError } from '@netbench/plugin-api';
import { aptSudoRefusal, pathWithout, type SudoState, sudoState, testTrialContext, withPath } from '@netbench/plugin-api/testing';
import { installAptPackage } from '@netbench/plugin-api/tool-kit';
import { describe, expect, it } from 'vitest';
import { checkIperf, readIperfVersion } from './check.js';

const host = (prefix: string[] = []) => processHost({ id: 'h', name: 'h', cloud: 'local', internalIp: '127.0.0.1', prefix });
// Drop to the `nobody` user for commands, as a non-root netbench would run.
const NOBODY = ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'];

describe('readIperfVersion', () => {
  it('reads iperf 2 versions and refuses iperf3', () => {
    expect(readIperfVersion('iperf version 2.1.8 (12 August 2022) pthreads')).toEqual({ version: '2.1.8', features: { reverse: true, enhanced_tcp: true } });
    expect(readIperfVersion('iperf version 2.0.5 (08 Jul 2010) pthreads')).toEqual({ version: '2.0.5', features: { reverse: false, enhanced_tcp: false } });
    expect(readIperfVersion('iperf 3.12 (cJSON 1.7.15)')).toBeUndefined();
  });
});

describe('checkIperf', () => {
  it('reports the installed iperf 2 (which prints its version on stderr and exits 1)', async () => {
    const { ctx, dispose } = testTrialContext();
    try {
      const info = await checkIperf(host(), ctx);
      expect(info.version).toMatch(/^2\.\d+\.\d+/);
      expect(info.command).toBe('iperf');
    } finally {
      dispose();
    }
  });

  it('throws ToolMissingError when iperf is not on the PATH, UnsupportedError when `iperf` is iperf3', async () => {
    const { ctx, dispose } = testTrialContext();
    try {
      await expect(checkIperf(host(['env', 'PATH=/nonexistent']), ctx)).rejects.toBeInstanceOf(ToolMissingError);
      // A host where `iperf` runs iperf3: the argv after the prefix is ignored by `sh -c`'s script.
      await expect(checkIperf(host(['sh', '-c', 'exec iperf3 --version', '--']), ctx)).rejects.toBeInstanceOf(UnsupportedError);
    } finally {
      dispose();
    }
  });
});

describe('install (iperf)', () => {
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

/** Installing iperf as a normal user ends as this sudo state says: the right refusal, or an install. */
async function expectInstallAs(nobody: Host, state: SudoState): Promise<void> {
  const { ctx, dispose } = testTrialContext();
  try {
    const attempt = installAptPackage(nobody, 'iperf', ctx);
    const refusal = aptSudoRefusal(state, 'iperf', 'h');
    if (refusal === undefined) return await expect(attempt).resolves.toBeUndefined();
    await expect(attempt).rejects.toBeInstanceOf(UnsupportedError);
    await expect(attempt).rejects.toThrow(refusal);
  } finally {
    dispose();
  }
}
