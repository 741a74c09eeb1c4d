import { availableParallelism } from 'node:os';
import { expect, it } from 'vitest';
import { processHost } from '../transport/process-host.js';
import { childPids, cpuParams, pinnedArgv, placementLabels, readAffinity } from './cpu-placement.js';

const host = processHost({ id: 'h', name: 'h', cloud: 'test', internalIp: '127.0.0.1' });

it('pins with taskset -c and reads the affinity back from /proc (a real process)', async () => {
  const last = availableParallelism() - 1;
  const sleeper = host.spawn(pinnedArgv(['sleep', '5'], last));
  try {
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await readAffinity(host, sleeper.pid)).toBe(String(last));
  } finally {
    sleeper.kill('SIGKILL');
    await sleeper.exited;
  }
  expect(pinnedArgv(['ping', '-c', '1'], undefined)).toEqual(['ping', '-c', '1']);
});

it('finds the children of a process, and says nothing it cannot read', async () => {
  const parent = host.spawn(['sh', '-c', 'sleep 5 & wait']);
  try {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const children = await childPids(host, parent.pid);
    expect(children).toHaveLength(1);
    expect(await readAffinity(host, children[0])).toMatch(/^\d+(-\d+)?(,\d+(-\d+)?)*$/);
  } finally {
    parent.kill('SIGKILL');
    await parent.exited;
  }
  expect(await readAffinity(host, undefined)).toBeUndefined();
  expect(await readAffinity(host, 2 ** 30)).toBeUndefined();
  expect(await childPids(host, undefined)).toEqual([]);
});

it('names the labels', () => {
  expect(cpuParams({ client: 0, server: 1 })).toEqual({ cpu_client: 0, cpu_server: 1 });
  expect(cpuParams(undefined)).toEqual({});
  expect(placementLabels('0', undefined)).toEqual({ cpu_client_affinity: '0', cpu_server_affinity: 'unknown' });
});
