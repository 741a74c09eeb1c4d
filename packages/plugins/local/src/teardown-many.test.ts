import { closeSync, openSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import plugin from './index.js';
import { runTag } from './naming.js';
import { mustRun, runCommand } from '@netbench/plugin-api/cloud-kit';
import { linkAbsent } from './teardown.js';
import { hostRun, leftovers, request, testRun } from './test-support/lab.js';

const linkExists = async (name: string) => (await runCommand(['ip', 'link', 'show', 'dev', name])).code === 0;

describe('local lab: teardownMany', () => {
  it('tells an interface of this namespace from one that is not there, by /proc/self/net/dev', async () => {
    const run = testRun();
    const name = `nb${runTag(run.ctx.runId)}h9`;
    try {
      expect(await linkAbsent('lo')).toBe(false);
      expect(await linkAbsent(name)).toBe(true);
      await mustRun(['ip', 'link', 'add', 'name', name, 'type', 'bridge']);
      expect(await linkAbsent(name)).toBe(false);
      // A prefix of a present name is not present.
      expect(await linkAbsent(name.slice(0, -1))).toBe(true);
    } finally {
      await runCommand(['ip', 'link', 'del', 'dev', name]);
      run.dispose();
    }
    expect(await linkAbsent(name)).toBe(true);
  });

  it('deletes a whole lab in one call, with an outcome per resource, and again as a no-op', async () => {
    const run = testRun();
    const tag = runTag(run.ctx.runId);
    try {
      const hosts = await plugin.provision([request('a', { sshd: true }), request('b')], run.ctx);
      // Something running in each namespace, as a trial's straggler would be.
      for (const host of hosts) host.spawn(['sleep', '300']);
      expect(await hostRun(hosts[0]!, ['ip', '-o', 'link', 'show', 'dev', 'eth0'])).toMatch(/eth0/);
      for (const host of hosts) await host.close?.();
      const pending = run.ctx.ledger.pending();
      expect(pending.map((r) => r.type)).toEqual(expect.arrayContaining(['process', 'veth', 'netns', 'bridge']));
      const outcomes = await plugin.teardownMany!(pending, run.ctx);
      expect(outcomes).toEqual(pending.map(() => undefined));
      expect(await leftovers(run.ctx.runId, tag)).toEqual([]);
      // Idempotent: everything already gone is success.
      expect(await plugin.teardownMany!(pending, run.ctx)).toEqual(pending.map(() => undefined));
    } finally {
      await run.teardown(plugin);
      run.dispose();
    }
  }, 60_000);

  it('deletes a veth itself when its namespace outlives `ip netns del` (held open), and reports refusals per resource', async () => {
    const run = testRun();
    const tag = runTag(run.ctx.runId);
    let held: number | undefined;
    try {
      const [host] = await plugin.provision([request('a')], run.ctx);
      const netns = host!.labels.netns!;
      // An open descriptor keeps the namespace (and the veth inside it) alive after its name is removed.
      held = openSync(`/run/netns/${netns}`, 'r');
      const pending = run.ctx.ledger.pending();
      const veth = pending.find((r) => r.type === 'veth')!;
      const refused = { type: 'veth', id: 'eth0' };
      const outcomes = await plugin.teardownMany!([...pending, refused], run.ctx);
      expect(outcomes.slice(0, -1)).toEqual(pending.map(() => undefined));
      expect(outcomes.at(-1)?.message).toMatch(/refusing to delete veth "eth0": not a netbench name/);
      expect(await linkExists(veth.id)).toBe(false);
      expect(await leftovers(run.ctx.runId, tag)).toEqual([]);
    } finally {
      if (held !== undefined) closeSync(held);
      await run.teardown(plugin);
      run.dispose();
    }
  }, 60_000);
});
