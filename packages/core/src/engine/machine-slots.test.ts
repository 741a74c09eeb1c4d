import { processHost } from '@netbench/plugin-api';
import { expect, it } from 'vitest';
import { machineSlots } from './machine-slots.js';

const installer = (id: string) => processHost({ id, name: id, cloud: 'local', internalIp: '127.0.0.1' });
const lab = (id: string, machine: string) => processHost({ id, name: id, cloud: 'local', internalIp: '127.0.0.1', installHost: installer(machine) });
const own = (id: string) => processHost({ id, name: id, cloud: 'static', internalIp: '127.0.0.1' });

/** Starts `work` for each host at once; each piece waits until released, and the test watches how many run together. */
function harness(slots: ReturnType<typeof machineSlots>) {
  const running = new Set<string>();
  let most = 0;
  const release = new Map<string, () => void>();
  const order: string[] = [];
  const start = (host: ReturnType<typeof own>) =>
    slots(
      host,
      () =>
        new Promise<string>((resolve) => {
          running.add(host.id);
          order.push(host.id);
          most = Math.max(most, running.size);
          release.set(host.id, () => {
            running.delete(host.id);
            resolve(host.id);
          });
        }),
    );
  return { start, running, release, order, most: () => most };
}

it('runs at most N pieces of work on the hosts of one machine at a time, in the order asked, each slot handed on', async () => {
  const h = harness(machineSlots(2));
  const hosts = ['a', 'b', 'c', 'd', 'e'].map((id) => lab(id, 'root'));
  const done = Promise.all(hosts.map(h.start));
  await new Promise((r) => setImmediate(r));
  expect([...h.running]).toEqual(['a', 'b']);
  h.release.get('a')!();
  await new Promise((r) => setImmediate(r));
  expect([...h.running]).toEqual(['b', 'c']);
  for (const id of ['b', 'c']) h.release.get(id)!();
  await new Promise((r) => setImmediate(r));
  expect([...h.running]).toEqual(['d', 'e']);
  for (const id of ['d', 'e']) h.release.get(id)!();
  expect(await done).toEqual(['a', 'b', 'c', 'd', 'e']);
  expect(h.order).toEqual(['a', 'b', 'c', 'd', 'e']);
  expect(h.most()).toBe(2);
});

it('machines do not wait for each other, and hosts without an installer never wait', async () => {
  const h = harness(machineSlots(1));
  const done = Promise.all([lab('a1', 'one'), lab('a2', 'one'), lab('b1', 'two'), own('s1'), own('s2')].map(h.start));
  await new Promise((r) => setImmediate(r));
  expect([...h.running].sort()).toEqual(['a1', 'b1', 's1', 's2']);
  for (const id of ['a1', 'b1', 's1', 's2']) h.release.get(id)!();
  await new Promise((r) => setImmediate(r));
  expect([...h.running]).toEqual(['a2']);
  h.release.get('a2')!();
  await done;
});

it('a piece that fails frees its slot too', async () => {
  const slots = machineSlots(1);
  const host = lab('a', 'root');
  await expect(slots(host, () => Promise.reject(new Error('check failed')))).rejects.toThrow('check failed');
  await expect(slots(host, () => Promise.resolve('next'))).resolves.toBe('next');
});
