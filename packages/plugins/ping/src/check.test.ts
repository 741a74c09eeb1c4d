import { type Host, processHost, ToolMissingError, UnsupportedError } from '@netbench/plugin-api';
import { aptSudoRefusal, pathWithout, type SudoState, sudoState, testTrialContext, withPath } from '@netbench/plugin-api/testing';
import { installAptPackage } from '@netbench/plugin-api/tool-kit';
import { describe, expect, it } from 'vitest';
import { checkPing, readPingVersion } from './check.js';

const host = (prefix: string[] = []) => processHost({ id: 'h', name: 'h', cloud: 'local', internalIp: '127.0.0.1', prefix });
// Drop to the `nobody` user for commands, as a non-root netbench would run.
const NOBODY = ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'];

describe('readPingVersion', () => {
  it('reads both iputils version formats', () => {
    expect(readPingVersion('ping from iputils 20221126\nlibcap: yes, IDN: yes')).toEqual({ version: 's20221126', minUserInterval: '0.002' });
    expect(readPingVersion('ping utility, iputils-s20180629')).toEqual({ version: 's20180629', minUserInterval: '0.2' });
    expect(readPingVersion('BusyBox v1.36.1 (2023-06-06) multi-call binary.')).toBeUndefined();
  });
});

describe('checkPing', () => {
  it('reports the installed iputils version and root features', async () => {
    const { ctx, dispose } = testTrialContext();
    try {
      const info = await checkPing(host(), ctx);
      expect(info.version).toMatch(/^s\d{8}$/);
      expect(info.features).toEqual({ root: true, flood_allowed: true, min_user_interval: '0.002' });
      expect(info.command).toBe('ping');
    } finally {
      dispose();
    }
  });

  it('knows when it is not root', async () => {
    const { ctx, dispose } = testTrialContext();
    try {
      const info = await checkPing(host(NOBODY), ctx);
      expect(info.features).toMatchObject({ root: false, flood_allowed: false });
    } finally {
      dispose();
    }
  });

  it('throws ToolMissingError when ping is not on the PATH (exit 127) or cannot start (ENOENT)', async () => {
    const { ctx, dispose } = testTrialContext();
    try {
      await expect(checkPing(host(['env', 'PATH=/nonexistent']), ctx)).rejects.toBeInstanceOf(ToolMissingError);
      await expect(checkPing(host(['/nonexistent/netbench-no-such-binary']), ctx)).rejects.toBeInstanceOf(ToolMissingError);
    } finally {
      dispose();
    }
  });
});

describe('installAptPackage', () => {
  it('as root: apt-get install is a no-op success for an installed package', async () => {
    const { ctx, dispose } = testTrialContext();
    try {
      await expect(installAptPackage(host(), 'iputils-ping', ctx)).resolves.toBeUndefined();
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

/** Installing iputils-ping as a normal user ends as this sudo state says: the right refusal, or an install. */
async function expectInstallAs(nobody: Host, state: SudoState): Promise<void> {
  const { ctx, dispose } = testTrialContext();
  try {
    const attempt = installAptPackage(nobody, 'iputils-ping', ctx);
    const refusal = aptSudoRefusal(state, 'iputils-ping', 'h');
    if (refusal === undefined) return await expect(attempt).resolves.toBeUndefined();
    await expect(attempt).rejects.toBeInstanceOf(UnsupportedError);
    await expect(attempt).rejects.toThrow(refusal);
  } finally {
    dispose();
  }
}
