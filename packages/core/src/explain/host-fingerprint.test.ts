import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { release } from 'node:os';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { fingerprintArgv, fingerprintChanges, parseFingerprint } from './host-fingerprint.js';

const exec = promisify(execFile);

describe('a host fingerprint', () => {
  it('of this machine: its kernel, boot id, CPUs, congestion control, sysctls and interfaces', async () => {
    const [command, ...args] = fingerprintArgv('lo');
    const fingerprint = parseFingerprint((await exec(command!, args)).stdout);
    expect(fingerprint.kernel).toBe(release());
    expect(fingerprint.machine).toBe(readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim());
    expect(fingerprint.congestionControl).toBe(readFileSync('/proc/sys/net/ipv4/tcp_congestion_control', 'utf8').trim());
    expect(fingerprint.cpuCount).toBe(
      readFileSync('/proc/cpuinfo', 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('processor')).length,
    );
    expect(fingerprint.sysctls['net.ipv4.tcp_rmem']).toBe(readFileSync('/proc/sys/net/ipv4/tcp_rmem', 'utf8').trim().replace(/\s+/g, ' '));
    expect(fingerprint.interfaces.find((i) => i.name === 'lo')?.mtu).toBe(Number(readFileSync('/sys/class/net/lo/mtu', 'utf8')));
  });

  it('says what changed between two runs, field by field', () => {
    const a = parseFingerprint(
      '==> /proc/sys/kernel/osrelease <==\n6.1.0-25\n\n==> /proc/sys/net/ipv4/tcp_congestion_control <==\ncubic\n\n==> net eth0 <==\nmtu 1500\ndriver ../../ena\nnuma \n',
    );
    const b = parseFingerprint(
      '==> /proc/sys/kernel/osrelease <==\n6.1.0-26\n\n==> /proc/sys/net/ipv4/tcp_congestion_control <==\ncubic\n\n==> net eth0 <==\nmtu 9001\ndriver ../../ena\nnuma 0\n',
    );
    expect(fingerprintChanges(a, b)).toEqual(['eth0.mtu: 1500 → 9001', 'eth0.numaNode: — → 0', 'kernel: 6.1.0-25 → 6.1.0-26']);
    expect(fingerprintChanges(a, a)).toEqual([]);
  });
});
