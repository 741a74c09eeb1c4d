import { type Host, processHost, ToolMissingError, UnsupportedError } from '@netbench/plugin-api';
import { aptSudoRefusal, pathWithout, type SudoState, sudoState, testTrialContext, withPath } from '@netbench/plugin-api/testing';
import { installAptPackage } from '@netbench/plugin-api/tool-kit';
import { describe, expect, it } from 'vitest';
import { checkFping, readFpingVersion } from './check.js';
import { fpingSchema } from './schema.js';
import { fpingArgv } from './trial-settings.js';
import { fpingTrials } from './trials.js';

const host = (prefix: string[] = []) => processHost({ id: 'h', name: 'h', cloud: 'local', internalIp: '127.0.0.1', prefix });
// Drop to the `nobody` user for commands, as a non-root netbench would run.
const NOBODY = ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'];

describe('checkFping', () => {
  it('reports the installed fping and whether commands run as root', async () => {
    const { ctx, dispose } = testTrialContext();
    try {
      const info = await checkFping(host(), ctx);
      expect(info.version).toMatch(/^\d+\.\d+/);
      expect(info.features).toEqual({ root: true });
      expect((await checkFping(host(['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups']), ctx)).features).toEqual({ root: false });
    } finally {
      dispose();
    }
  });

  it('throws ToolMissingError when fping is not on the PATH', async () => {
    const { ctx, dispose } = testTrialContext();
    try {
      await expect(checkFping(host(['env', 'PATH=/nonexistent']), ctx)).rejects.toBeInstanceOf(ToolMissingError);
    } finally {
      dispose();
    }
    expect(readFpingVersion('fping: Version 5.1')).toBe('5.1');
    expect(readFpingVersion('ping from iputils 20221126')).toBeUndefined();
  });
});

describe('fpingTrials', () => {
  it('one trial per direction, test icmp, and an argv with every reply kept (-C) and dated (-D)', () => {
    const trials = fpingTrials(fpingSchema.parse({ count: 50, period: 10, direction: 'both', timeout: 100 }));
    expect(trials.map((t) => [t.test, t.params.direction])).toEqual([
      ['icmp', 'forward'],
      ['icmp', 'reverse'],
    ]);
    expect(trials[0]!.estimatedSeconds).toBeCloseTo(0.6, 10);
    expect(fpingArgv(trials[0]!.params, '10.0.0.2')).toEqual(['env', 'LC_ALL=C', 'fping', '-C', '50', '-D', '-p', '10', '-b', '56', '-t', '100', '--', '10.0.0.2']);
    expect(() => fpingArgv(trials[0]!.params, '-f/etc/passwd')).toThrow(/fping target "-f\/etc\/passwd" is not an IP address or host name/);
  });
});

describe('install (fping)', () => {
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

/** Installing fping as a normal user ends as this sudo state says: the right refusal, or an install. */
async function expectInstallAs(nobody: Host, state: SudoState): Promise<void> {
  const { ctx, dispose } = testTrialContext();
  try {
    const attempt = installAptPackage(nobody, 'fping', ctx);
    const refusal = aptSudoRefusal(state, 'fping', 'h');
    if (refusal === undefined) return await expect(attempt).resolves.toBeUndefined();
    await expect(attempt).rejects.toBeInstanceOf(UnsupportedError);
    await expect(attempt).rejects.toThrow(refusal);
  } finally {
    dispose();
  }
}
