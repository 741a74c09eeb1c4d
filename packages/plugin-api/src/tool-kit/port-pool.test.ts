import { describe, expect, it } from 'vitest';
import { RetryableError } from '../errors/index.js';
import { PortPool } from './port-pool.js';

describe('PortPool', () => {
  it('hands out distinct ports while they are held; all taken is retryable and names the tool', () => {
    const pool = new PortPool(6000, 6002, 'iperf3');
    expect([pool.acquire(), pool.acquire(), pool.acquire()]).toEqual([6000, 6001, 6002]);
    expect(() => pool.acquire()).toThrow(RetryableError);
    expect(() => pool.acquire()).toThrow('no free iperf3 port in 6000-6002');
    pool.release(6001);
    expect(pool.acquire()).toBe(6001);
  });

  it('goes round the range, so a retry after a release lands on another port', () => {
    const pool = new PortPool(6000, 6002);
    const first = pool.acquire();
    pool.release(first);
    expect(pool.acquire()).toBe(6001);
    expect(pool.acquire()).toBe(6002);
    expect(pool.acquire()).toBe(6000);
  });

  it('skips ports the server host reports busy', () => {
    const pool = new PortPool(6000, 6005);
    expect(pool.acquire((port) => port < 6003)).toBe(6003);
    expect(pool.size).toBe(6);
  });

  it('rejects a bad range', () => {
    expect(() => new PortPool(6000, 5000)).toThrow(RangeError);
    expect(() => new PortPool(0, 10)).toThrow(RangeError);
    expect(() => new PortPool(1, 65_536)).toThrow(RangeError);
  });
});
