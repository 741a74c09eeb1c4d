import { afterEach, expect, it } from 'vitest';
import { TimeoutError } from '../errors/index.js';
import { processHost } from './process-host.js';
import { timeoutScale } from './timeout-scale.js';

const saved = process.env.NETBENCH_TIMEOUT_SCALE;
afterEach(() => {
  if (saved === undefined) delete process.env.NETBENCH_TIMEOUT_SCALE;
  else process.env.NETBENCH_TIMEOUT_SCALE = saved;
});

it('reads NETBENCH_TIMEOUT_SCALE; unset, below 1 or not a number is 1', () => {
  expect(timeoutScale({ NETBENCH_TIMEOUT_SCALE: '10' })).toBe(10);
  expect(timeoutScale({ NETBENCH_TIMEOUT_SCALE: '2.5' })).toBe(2.5);
  for (const value of [undefined, '', '0', '0.5', '-3', 'ten', 'Infinity']) expect(timeoutScale({ NETBENCH_TIMEOUT_SCALE: value }), String(value)).toBe(1);
});

const host = () => processHost({ id: 'h', name: 'h', cloud: 'local', internalIp: '127.0.0.1' });

it("a command's time limit stretches by the scale: `sleep 0.5` with 200 ms fails unscaled and finishes at 100×", async () => {
  delete process.env.NETBENCH_TIMEOUT_SCALE;
  await expect(host().exec(['sleep', '0.5'], { timeoutMs: 200 })).rejects.toThrow(new TimeoutError('sleep 0.5 timed out after 200 ms'));
  process.env.NETBENCH_TIMEOUT_SCALE = '100';
  const result = await host().exec(['sleep', '0.5'], { timeoutMs: 200 });
  expect(result.code).toBe(0);
});
