// Reattach on the real lab: a later invocation of a run finds the namespaces
// an earlier one made (the ledger), gives them back exactly as provision
// described them, and refuses one that was changed in between.
import { readFileSync } from 'node:fs';
import type { Host } from '@netbench/plugin-api';
import { mustRun, runCommand } from '@netbench/plugin-api/cloud-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import plugin from './index.js';
import { runTag } from './naming.js';
import { hostRun, leftovers, request, testRun } from './test-support/lab.js';

// A namespace may switch to any algorithm the machine allows; the other one than reno, else reno itself (then the check below is moot).
const allowed = readFileSync('/proc/sys/net/ipv4/tcp_allowed_congestion_control', 'utf8').trim().split(/\s+/);
const other = allowed.find((cc) => cc !== 'reno') ?? 'reno';

/** What tools and samples see of a host (functions aside). */
const described = (host: Host) => ({
  id: host.id,
  name: host.name,
  cloud: host.cloud,
  zone: host.zone,
  machineType: host.machineType,
  internalIp: host.internalIp,
  os: host.os,
  labels: host.labels,
  installer: host.installHost?.id,
});

describe('local lab: reattach', () => {
  const run = testRun();
  let made: Host[] = [];
  const requests = [request('a', { congestionControl: 'reno' }), request('b', { sshd: true }), request('c', {})];

  beforeAll(async () => {
    made = await plugin.provision(requests, run.ctx);
  }, 60_000);

  afterAll(async () => {
    expect(await run.teardown(plugin)).toEqual([]);
    expect(await leftovers(run.ctx.runId, runTag(run.ctx.runId))).toEqual([]);
    run.dispose();
  }, 60_000);

  it('gives back the hosts provision made, with the same address, labels and installer, creating nothing', async () => {
    const entries = run.ctx.ledger.entries.length;
    const found = await plugin.reattach!(requests, run.ctx);
    expect(found.map(described)).toEqual(made.map(described));
    expect(found[0]!.labels.tcp_congestion_control).toBe('reno');
    expect(found[0]!.labels.cpu_count).toBeDefined();
    expect(run.ctx.ledger.entries.length).toBe(entries);
    // Commands run in the same namespace as before.
    expect(await hostRun(found[2]!, ['ip', '-4', '-o', 'addr', 'show', 'dev', 'eth0'])).toContain(made[2]!.internalIp);
  });

  it('stops what an earlier, killed invocation left running on a host, and says so', async () => {
    // A server the earlier invocation started in host a's namespace (recorded by onSpawn, as tools' processes are).
    const left = made[0]!.spawn(['sleep', '600']);
    await new Promise((done) => setTimeout(done, 200));
    expect(left.pid).toBeGreaterThan(0);
    const found = await plugin.reattach!([requests[0]!], run.ctx);
    expect(found[0]!.internalIp).toBe(made[0]!.internalIp);
    const exit = await left.exited;
    expect(exit.code === null || exit.code !== 0).toBe(true);
    expect(run.warnings).toContainEqual(`local: host a: stopped 1 process an earlier invocation of run ${run.ctx.runId} left running (pids ${left.pid})`);
    // Nothing left to stop the next time.
    const before = run.warnings.length;
    await plugin.reattach!([requests[0]!], run.ctx);
    expect(run.warnings.length).toBe(before);
  });

  it('refuses a namespace whose congestion control or address changed since provision', async () => {
    const netns = made[0]!.labels.netns as string;
    await mustRun(['ip', 'netns', 'exec', netns, 'sysctl', '-w', `net.ipv4.tcp_congestion_control=${other}`]);
    try {
      await expect(plugin.reattach!([requests[0]!], run.ctx)).rejects.toThrow(
        `local: host a: namespace ${netns} now uses congestion control ${other}, the spec sets reno: it was changed since provision`,
      );
    } finally {
      await mustRun(['ip', 'netns', 'exec', netns, 'sysctl', '-w', 'net.ipv4.tcp_congestion_control=reno']);
    }
    const third = made[2]!;
    const cidr = (await runCommand(['ip', '-n', third.labels.netns as string, '-4', '-o', 'addr', 'show', 'dev', 'eth0'])).stdout
      .split(/\s+/)
      .find((w) => w.startsWith(`${third.internalIp}/`))!;
    const moved = `${third.internalIp.split('.').slice(0, 3).join('.')}.250/${cidr.split('/')[1]}`;
    await mustRun(['ip', '-n', third.labels.netns as string, 'addr', 'del', cidr, 'dev', 'eth0']);
    await mustRun(['ip', '-n', third.labels.netns as string, 'addr', 'add', moved, 'dev', 'eth0']);
    await expect(plugin.reattach!([requests[2]!], run.ctx)).rejects.toThrow(
      `local: host c: namespace ${third.labels.netns} has address ${moved.split('/')[0]}, but it was provisioned with ${third.internalIp}: it was changed or replaced`,
    );
  });

  it('refuses a host whose namespace is gone, naming it', async () => {
    const netns = made[1]!.labels.netns as string;
    await mustRun(['ip', 'netns', 'delete', netns]);
    await expect(plugin.reattach!([requests[1]!], run.ctx)).rejects.toThrow(`local: host b: namespace ${netns} is gone or has no address on eth0`);
  });
});
