import { mustRun, runCommand } from '@netbench/plugin-api/cloud-kit';
import { describe, expect, it } from 'vitest';
import plugin from './index.js';
import { hubName, runTag } from './naming.js';
import { linkAbsent } from './teardown.js';
import { hostRun, leftovers, request, testRun } from './test-support/lab.js';

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

  it('deletes links in the hub on their own when the hub is not in the batch, and reports refusals per resource', async () => {
    const run = testRun();
    const tag = runTag(run.ctx.runId);
    const hub = hubName(run.ctx.runId);
    try {
      await plugin.provision([request('a'), request('b')], run.ctx);
      const pending = run.ctx.ledger.pending();
      const links = pending.filter((r) => r.type === 'veth' || r.type === 'bridge');
      expect(links.map((r) => r.id).sort()).toEqual([`nb${tag}br`, `nb${tag}h0`, `nb${tag}h1`]);
      const refused = [
        { type: 'veth', id: 'eth0' },
        { type: 'bridge', id: `nb${tag}br`, data: { netns: 'some-other-namespace' } },
      ];
      const outcomes = await plugin.teardownMany!([...links, ...refused], run.ctx);
      expect(outcomes.slice(0, links.length)).toEqual(links.map(() => undefined));
      expect(outcomes[links.length]?.message).toMatch(/refusing to delete veth "eth0": not a netbench name/);
      expect(outcomes[links.length + 1]?.message).toMatch(/refusing to delete bridge .* in namespace "some-other-namespace": not a netbench hub/);
      // The hub is still there, empty of the lab's links.
      const left = await runCommand(['ip', '-n', hub, '-o', 'link', 'show']);
      expect(left.code).toBe(0);
      expect(left.stdout).not.toMatch(new RegExp(`nb${tag}`));
      expect(await run.teardown(plugin)).toEqual([]);
      expect(await leftovers(run.ctx.runId, tag)).toEqual([]);
    } finally {
      await run.teardown(plugin);
      run.dispose();
    }
  }, 60_000);

  it('still removes what a lab made before the hub: a bridge in this namespace and its FORWARD rule, from the ledger and by cleanup', async () => {
    const iptables = (await runCommand(['iptables', '-w', '-S', 'FORWARD'])).code === 0;
    for (const how of ['ledger', 'cleanup'] as const) {
      const run = testRun();
      const { runId } = run.ctx;
      const bridge = `nb${runTag(runId)}br`;
      const rule = ['FORWARD', '-i', bridge, '-o', bridge, '-m', 'comment', '--comment', `netbench:${runId}`, '-j', 'ACCEPT'];
      try {
        // As such a lab made them: the bridge with the run's alias, and (where iptables works) the rule.
        await mustRun(['ip', 'link', 'add', 'name', bridge, 'type', 'bridge']);
        await mustRun(['ip', 'link', 'set', 'dev', bridge, 'alias', `netbench:${runId}`]);
        if (iptables) await mustRun(['iptables', '-w', '-I', ...rule]);
        if (how === 'ledger') {
          const resources = [...(iptables ? [{ type: 'firewall', id: `forward:${bridge}`, data: { runId, bridge } }] : []), { type: 'bridge', id: bridge, data: { runId } }];
          expect(await plugin.teardownMany!(resources, run.ctx)).toEqual(resources.map(() => undefined));
        } else {
          const report = await plugin.cleanup!({ runId }, run.ctx);
          expect(report.failed).toEqual([]);
          expect(report.found.map((r) => `${r.type} ${r.id}`).sort()).toEqual([`bridge ${bridge}`, ...(iptables ? [`firewall forward:${bridge}`] : [])]);
        }
        expect(await linkAbsent(bridge)).toBe(true);
        if (iptables) expect((await runCommand(['iptables', '-w', '-C', ...rule])).code).not.toBe(0);
      } finally {
        await runCommand(['ip', 'link', 'del', 'dev', bridge]);
        if (iptables) await runCommand(['iptables', '-w', '-D', ...rule]);
        run.dispose();
      }
    }
  }, 60_000);
});
