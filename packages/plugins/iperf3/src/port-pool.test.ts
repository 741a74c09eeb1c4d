import { readFileSync } from 'node:fs';
import { RetryableError } from '@netbench/plugin-api';
import { boundPorts } from '@netbench/plugin-api/tool-kit';
import { describe, expect, it } from 'vitest';
import { PortPool } from './port-pool.js';

describe('PortPool (iperf3)', () => {
  it('defaults to 5201-5300 and names iperf3 when all are taken', () => {
    const pool = new PortPool();
    expect([pool.first, pool.last, pool.acquire()]).toEqual([5201, 5300, 5201]);
    const small = new PortPool(6000, 6000);
    small.acquire();
    expect(() => small.acquire()).toThrow(RetryableError);
    expect(() => small.acquire()).toThrow('no free iperf3 port in 6000-6000');
  });
});

describe('boundPorts on /proc/net/tcp captured next to iperf3 servers', () => {
  it('reads LISTEN sockets from real /proc/net/tcp and tcp6, not established ones', () => {
    const text = readFileSync(new URL('./__fixtures__/proc-net-tcp.txt', import.meta.url), 'utf8');
    expect(boundPorts(text, 'tcp')).toEqual(new Set([12865, 5301]));
  });

  it('finds nothing in other text', () => {
    expect(boundPorts('cat: /proc/net/tcp: No such file or directory', 'tcp')).toEqual(new Set());
  });
});
