import { readFileSync } from 'node:fs';
import type { Host } from '@netbench/plugin-api';
import { runCommand } from '@netbench/plugin-api/cloud-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import plugin from './index.js';
import { request, testRun } from './test-support/lab.js';

const available = readFileSync('/proc/sys/net/ipv4/tcp_available_congestion_control', 'utf8').trim().split(/\s+/);
const rootDefault = () => readFileSync('/proc/sys/net/ipv4/tcp_congestion_control', 'utf8').trim();
// reno is built into every Linux kernel; the other is whatever else this one has, else reno again.
const other = available.find((cc) => cc !== 'reno') ?? 'reno';

describe('local lab: TCP congestion control per namespace', () => {
  const run = testRun();
  let hosts: Host[] = [];
  const before = rootDefault();

  beforeAll(async () => {
    hosts = await plugin.provision([request('a', { congestionControl: 'reno' }), request('b', { congestionControl: other }), request('c', {})], run.ctx);
  }, 60_000);

  afterAll(async () => {
    await run.teardown(plugin);
    run.dispose();
  }, 60_000);

  it("sets each namespace's default and labels the host with what the namespace reports", async () => {
    const inside = async (host: Host) => (await runCommand(['ip', 'netns', 'exec', host.labels.netns as string, 'cat', '/proc/sys/net/ipv4/tcp_congestion_control'])).stdout.trim();
    expect(await inside(hosts[0]!)).toBe('reno');
    expect(hosts[0]!.labels.tcp_congestion_control).toBe('reno');
    expect(await inside(hosts[1]!)).toBe(other);
    expect(hosts[1]!.labels.tcp_congestion_control).toBe(other);
    // Unset: the namespace's own default, read back.
    expect(hosts[2]!.labels.tcp_congestion_control).toBe(await inside(hosts[2]!));
    // The machine's own default is untouched.
    expect(rootDefault()).toBe(before);
  });

  it('allows an algorithm for namespaces while the run lasts, recorded in the ledger and taken back in teardown', async () => {
    const allowed = () => readFileSync('/proc/sys/net/ipv4/tcp_allowed_congestion_control', 'utf8').trim().split(/\s+/);
    // The kernel refuses a namespace default outside the root's allowed list (EPERM, even to root).
    const outside = available.find((cc) => !allowed().includes(cc));
    if (outside === undefined) return; // every loaded algorithm is allowed here: nothing to add
    const own = testRun();
    try {
      const [host] = await plugin.provision([request('d', { congestionControl: outside })], own.ctx);
      expect(host!.labels.tcp_congestion_control).toBe(outside);
      expect(allowed()).toContain(outside);
      const entry = own.ctx.ledger.entries.find((e) => e.resource.type === 'sysctl');
      expect(entry?.resource).toMatchObject({ id: `tcp_allowed_congestion_control:${outside}`, data: { algorithm: outside } });
    } finally {
      await own.teardown(plugin);
      own.dispose();
    }
    expect(allowed()).not.toContain(outside);
    expect(rootDefault()).toBe(before);
  });

  it('refuses an algorithm the kernel has not loaded, before creating anything', async () => {
    const refused = testRun();
    try {
      await expect(plugin.preflight!([request('x', { congestionControl: 'nosuchcc' })], refused.ctx)).rejects.toThrow(
        /local: host x: congestionControl nosuchcc is not available on this kernel \(it has: .*reno.*\)\. To fix: load it \(modprobe tcp_nosuchcc\)/,
      );
      expect(refused.ctx.ledger.entries).toEqual([]);
    } finally {
      refused.dispose();
    }
  });
});
