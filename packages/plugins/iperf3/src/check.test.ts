import { processHost, ToolMissingError, UnsupportedError } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import { checkIperf3, readIperf3Version } from './check.js';
import { installAptPackage } from '@netbench/plugin-api/tool-kit';
import { testTrialContext } from '@netbench/plugin-api/testing';

const host = (prefix: string[] = []) => processHost({ id: 'h', name: 'h', cloud: 'local', internalIp: '127.0.0.1', prefix });

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

  it('not root: sudo -n, and a clear error when that cannot work', async () => {
    const { ctx, dispose } = testTrialContext();
    try {
      const attempt = installAptPackage(host(['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups']), 'iperf3', ctx);
      await expect(attempt).rejects.toBeInstanceOf(UnsupportedError);
      await expect(attempt).rejects.toThrow(/cannot install iperf3 on host h with sudo -n apt-get \(not root\)/);
    } finally {
      dispose();
    }
  });
});
