import { readFileSync } from 'node:fs';
import { RetryableError } from '@netbench/core';
import { describe, expect, it } from 'vitest';
import { listeningPorts } from './listening-ports.js';
import { PortPool } from './port-pool.js';

describe('PortPool', () => {
  it('hands out distinct ports while they are held', () => {
    const pool = new PortPool(6000, 6002);
    expect([pool.acquire(), pool.acquire(), pool.acquire()]).toEqual([6000, 6001, 6002]);
    expect(() => pool.acquire()).toThrow(RetryableError);
    pool.release(6001);
    expect(pool.acquire()).toBe(6001);
  });

  it('goes round the range, so a retry after a release lands on another port', () => {
    const pool = new PortPool(6000, 6002);
    const first = pool.acquire();
    pool.release(first);
    expect(pool.acquire()).toBe(6001);
  });

  it('skips ports the server host reports busy', () => {
    const pool = new PortPool(6000, 6005);
    expect(pool.acquire((port) => port < 6003)).toBe(6003);
  });

  it('rejects a bad range', () => {
    expect(() => new PortPool(6000, 5000)).toThrow(RangeError);
    expect(() => new PortPool(0, 10)).toThrow(RangeError);
  });
});

describe('listeningPorts', () => {
  it('reads LISTEN sockets from real /proc/net/tcp and tcp6, not established ones', () => {
    const text = readFileSync(new URL('./__fixtures__/proc-net-tcp.txt', import.meta.url), 'utf8');
    expect(listeningPorts(text)).toEqual(new Set([12865, 5301]));
  });

  it('finds nothing in other text', () => {
    expect(listeningPorts('cat: /proc/net/tcp: No such file or directory')).toEqual(new Set());
  });
});
