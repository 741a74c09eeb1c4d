import { expect, it } from 'vitest';
import { planLab } from './lab-plan.js';
import { request } from './test-support/lab.js';

const runId = '20261122-110256-k3f9a2';

it('hands out free addresses around fixed ones, in request order', () => {
  const plan = planLab(runId, [request('a'), request('b', { address: '10.213.0.2' }), request('c')]);
  expect(plan.hosts.map((h) => h.address)).toEqual(['10.213.0.1', '10.213.0.2', '10.213.0.3']);
  expect(plan.hosts.map((h) => h.veth)).toEqual(['nbk3f9a2h0', 'nbk3f9a2h1', 'nbk3f9a2h2']);
  expect(plan.bridge).toBe('nbk3f9a2br');
  expect(plan.subnet.text).toBe('10.213.0.0/24');
});

it('takes the subnet any host states, and refuses two different ones', () => {
  const plan = planLab(runId, [request('a'), request('b', { subnet: '192.168.7.0/29' })]);
  expect(plan.hosts.map((h) => h.address)).toEqual(['192.168.7.1', '192.168.7.2']);
  expect(() => planLab(runId, [request('a', { subnet: '10.1.0.0/24' }), request('b', { subnet: '10.2.0.0/24' })])).toThrow(/share one subnet/);
});

it('refuses addresses outside the subnet, network/broadcast addresses, duplicates and a full subnet', () => {
  expect(() => planLab(runId, [request('a', { address: '10.213.0.0' })])).toThrow(/host a: address 10\.213\.0\.0 is not a host address/);
  expect(() => planLab(runId, [request('a', { address: '10.213.0.255' })])).toThrow(/not a host address/);
  expect(() => planLab(runId, [request('a', { address: '10.213.0.5' }), request('b', { address: '10.213.0.5' })])).toThrow(/already used by host a/);
  const many = Array.from({ length: 7 }, (_, i) => request(`h${i}`, { subnet: '10.9.0.0/29' }));
  expect(() => planLab(runId, many)).toThrow(/no free address left for host h6/);
});

it('keeps namespace names distinct when host ids sanitize alike', () => {
  const plan = planLab(runId, [request('vm@a'), request('vm=a')]);
  expect(plan.hosts.map((h) => h.netns)).toEqual([`nb-${runId}-vm_a`, `nb-${runId}-vm_a-1`]);
});
