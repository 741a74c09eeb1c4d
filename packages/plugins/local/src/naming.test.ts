import { expect, it } from 'vitest';
import { BRIDGE_RE, bridgeName, HUB_RE, hubName, IFNAME_MAX, NETNS_RE, namespaceName, runIdTime, runTag, sanitizeHostId, VETH_RE, vethName } from './naming.js';

const runId = '20261122-110256-k3f9a2';

it('derives names that carry the run id or its tag and fit IFNAMSIZ', () => {
  expect(runTag(runId)).toBe('k3f9a2');
  expect(bridgeName(runId)).toBe('nbk3f9a2br');
  expect(vethName(runId, 0)).toBe('nbk3f9a2h0');
  expect(vethName(runId, 999_999)).toHaveLength(IFNAME_MAX);
  expect(() => vethName(runId, 1_000_000)).toThrow(/longer than 15/);
  expect(namespaceName(runId, 'vm1@zone=us-east1-b')).toBe('nb-20261122-110256-k3f9a2-vm1_zone_us-east1-b');
});

it('matches its own names with the patterns cleanup uses, and reads the run id back', () => {
  expect(BRIDGE_RE.exec(bridgeName(runId))?.[1]).toBe('k3f9a2');
  expect(VETH_RE.exec(vethName(runId, 12))?.slice(1)).toEqual(['k3f9a2', '12']);
  expect(NETNS_RE.exec(namespaceName(runId, 'a-b'))?.slice(1)).toEqual([runId, 'a-b']);
  expect(VETH_RE.test('eth0')).toBe(false);
  expect(NETNS_RE.test('nbt-netperf-dev-a')).toBe(false);
});

it('keeps odd host ids file-name safe and short', () => {
  expect(sanitizeHostId('../etc')).toBe('__etc');
  expect(sanitizeHostId('')).toBe('host');
  expect(sanitizeHostId('x'.repeat(300))).toHaveLength(100);
  expect(runTag('My Run!')).toBe('0myrun');
});

it('parses the start time a run id carries (UTC)', () => {
  expect(runIdTime(runId)?.toISOString()).toBe('2026-11-22T11:02:56.000Z');
  expect(runIdTime('not-a-run')).toBeUndefined();
  expect(runIdTime('20261399-110256-k3f9a2')).toBeUndefined();
});

it('names the hub namespace so that no host can take it and cleanup still finds it', () => {
  const runId = '20261128-180000-abc123';
  expect(hubName(runId)).toBe(`nb-${runId}-@hub`);
  expect(HUB_RE.exec(hubName(runId))?.[1]).toBe(runId);
  expect(NETNS_RE.exec(hubName(runId))?.[1]).toBe(runId);
  // A host called "@hub" is sanitized to "_hub": its namespace is another name.
  expect(namespaceName(runId, '@hub')).not.toBe(hubName(runId));
  expect(HUB_RE.test(namespaceName(runId, 'hub'))).toBe(false);
});
