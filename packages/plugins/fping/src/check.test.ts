import { processHost, ToolMissingError, UnsupportedError } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import { checkFping, readFpingVersion } from './check.js';
import { fpingArgv, readTrialSettings } from './trial-settings.js';
import { fpingSchema } from './schema.js';
import { fpingTrials } from './trials.js';
import { installAptPackage } from '@netbench/plugin-api/tool-kit';
import { testTrialContext } from '@netbench/plugin-api/testing';

const host = (prefix: string[] = []) => processHost({ id: 'h', name: 'h', cloud: 'local', internalIp: '127.0.0.1', prefix });

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
    expect(trials.map((t) => [t.test, t.params.direction])).toEqual([['icmp', 'forward'], ['icmp', 'reverse']]);
    expect(trials[0]!.estimatedSeconds).toBeCloseTo(0.6, 10);
    expect(fpingArgv(readTrialSettings(trials[0]!.params), '10.0.0.2')).toEqual(['env', 'LC_ALL=C', 'fping', '-C', '50', '-D', '-p', '10', '-b', '56', '-t', '100', '10.0.0.2']);
  });
});

describe('install (fping)', () => {
  it('not root: goes through sudo -n and says clearly why it cannot', async () => {
    const { ctx, dispose } = testTrialContext();
    try {
      const attempt = installAptPackage(host(['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups']), 'fping', ctx);
      await expect(attempt).rejects.toBeInstanceOf(UnsupportedError);
      await expect(attempt).rejects.toThrow(/cannot install fping on host h .*install fping by hand/);
    } finally {
      dispose();
    }
  });
});
