import type { Ledger } from '@netbench/plugin-api';
import { mustRun, runCommand } from '@netbench/plugin-api/cloud-kit';
import { afterAll, describe, expect, it } from 'vitest';
import plugin from './index.js';
import { hubName, namespaceName, runTag, vethName } from './naming.js';
import { leftovers, request, type TestRun, testRun, testRunId } from './test-support/lab.js';

const runs: TestRun[] = [];
const newRun = (runId?: string) => {
  const run = testRun(runId);
  runs.push(run);
  return run;
};

afterAll(async () => {
  for (const run of runs) {
    await run.teardown(plugin);
    await plugin.cleanup!({ runId: run.ctx.runId }, run.ctx);
    run.dispose();
  }
}, 60_000);

describe('local lab: failures and leftovers', () => {
  it('refuses an invalid fixed address before creating anything', async () => {
    const run = newRun();
    const requests = [request('a'), request('b', { address: '10.99.0.5' })];
    await expect(plugin.preflight!(requests, run.ctx)).rejects.toThrow(/host b: address 10\.99\.0\.5 is not a host address of subnet 10\.213\.0\.0\/24/);
    await expect(plugin.provision(requests, run.ctx)).rejects.toThrow(/10\.99\.0\.5/);
    expect(run.ctx.ledger.entries).toEqual([]);
  });

  it('refuses hosts that disagree on the subnet', async () => {
    const run = newRun();
    const requests = [request('a', { subnet: '10.213.0.0/24' }), request('b', { subnet: '10.214.0.0/24' })];
    await expect(plugin.preflight!(requests, run.ctx)).rejects.toThrow(/share one subnet.*10\.213\.0\.0\/24 \(a\) vs 10\.214\.0\.0\/24 \(b\)/);
  });

  it('leaves what the ledger can tear down when provisioning fails half-way', async () => {
    const run = newRun();
    const { runId } = run.ctx;
    // Something already holds the second host's namespace name, so its namespace cannot be made.
    const squatter = namespaceName(runId, 'b');
    await mustRun(['ip', 'netns', 'add', squatter]);
    await expect(plugin.provision([request('a'), request('b'), request('c')], run.ctx)).rejects.toThrow(/File exists/);

    const failed = run.ctx.ledger.entries.filter((e) => e.phase === 'failed').map((e) => `${e.resource.type} ${e.resource.id}`);
    expect(failed).toEqual([`netns ${squatter}`]);
    // The first host and the second's namespace exist now.
    expect((await leftovers(runId, runTag(runId))).length).toBeGreaterThanOrEqual(4);

    expect(await run.teardown(plugin)).toEqual([]);
    expect(await leftovers(runId, runTag(runId))).toEqual([]);
  }, 30_000);

  it('makes nothing when the ledger cannot record an intent (a full disk): the one ip process never starts', async () => {
    const run = newRun();
    const { runId } = run.ctx;
    const refused = namespaceName(runId, 'b');
    const { ledger } = run.ctx;
    const full: Ledger = {
      get entries() {
        return ledger.entries;
      },
      created: (resource) => ledger.created(resource),
      track: (resource, create) => (resource.id === refused ? Promise.reject(new Error('ENOSPC: no space left on device, write')) : ledger.track(resource, create)),
    };
    await expect(plugin.provision([request('a'), request('b')], { ...run.ctx, ledger: full })).rejects.toThrow(/ENOSPC/);
    expect(await leftovers(runId, runTag(runId))).toEqual([]);
    const hub = hubName(runId);
    const a = namespaceName(runId, 'a');
    expect(ledger.entries.map((e) => `${e.phase} ${e.resource.id}`)).toEqual([`intent ${hub}`, `intent ${a}`, `failed ${a}`, `failed ${hub}`]);
  }, 30_000);

  it('teardown leaves alone an interface whose alias names another run (a tag collision)', async () => {
    const run = newRun();
    const name = vethName(run.ctx.runId, 0);
    await mustRun(['ip', 'link', 'add', 'name', name, 'type', 'bridge']);
    try {
      await mustRun(['ip', 'link', 'set', 'dev', name, 'alias', 'netbench:20261122-000000-zzzzzz']);
      await plugin.teardown({ type: 'veth', id: name, data: { runId: run.ctx.runId } }, run.ctx);
      expect((await runCommand(['ip', 'link', 'show', 'dev', name])).code).toBe(0);
      // A damaged ledger cannot name an interface that is not ours.
      await expect(plugin.teardown({ type: 'veth', id: 'eth0' }, run.ctx)).rejects.toThrow(/not a netbench name/);
    } finally {
      await runCommand(['ip', 'link', 'del', 'dev', name]);
    }
  });

  it('cleanup finds and deletes the leftovers of a run whose ledger was lost', async () => {
    // An old run (its id dates from 2000) that crashed with an sshd running.
    const lost = newRun(`20000101-000000-${runTag(testRunId())}`);
    const hosts = await plugin.provision([request('a', { sshd: true }), request('b')], lost.ctx);
    const sshdPid = Number(lost.ctx.ledger.entries.findLast((e) => e.resource.id.startsWith('sshd@'))?.resource.data?.pid);
    expect(sshdPid).toBeGreaterThan(0);
    // A fresh run that an age filter must spare.
    const fresh = newRun();
    await plugin.provision([request('x')], fresh.ctx);

    const lostId = lost.ctx.runId;
    const tag = runTag(lostId);
    // The bridge and the veths' bridge ends are found inside the hub namespace (which takes them with it).
    const expected = [
      `process sshd@nb-${lostId}-a`,
      `veth nb${tag}h0`,
      `veth nb${tag}h1`,
      `netns nb-${lostId}-a`,
      `netns nb-${lostId}-b`,
      `netns nb-${lostId}-@hub`,
      `bridge nb${tag}br`,
    ];
    const dry = await plugin.cleanup!({ runId: lostId, dryRun: true }, lost.ctx);
    expect(dry.found.map((r) => `${r.type} ${r.id}`).sort()).toEqual([...expected].sort());
    expect(dry.failed).toEqual([]);
    // Dry run deleted nothing: the hosts still answer.
    expect((await hosts[1]!.exec(['ping', '-c', '1', '-W', '2', hosts[0]!.internalIp])).code).toBe(0);

    // The fresh run is younger than an hour, so an age filter skips it.
    const young = await plugin.cleanup!({ runId: fresh.ctx.runId, olderThanMs: 3_600_000, dryRun: true }, fresh.ctx);
    expect(young.found).toEqual([]);
    const freshFound = await plugin.cleanup!({ runId: fresh.ctx.runId, dryRun: true }, fresh.ctx);
    const freshTag = runTag(fresh.ctx.runId);
    expect(freshFound.found.map((r) => `${r.type} ${r.id}`).sort()).toEqual([
      `bridge nb${freshTag}br`,
      `netns nb-${fresh.ctx.runId}-@hub`,
      `netns nb-${fresh.ctx.runId}-x`,
      `veth nb${freshTag}h0`,
    ]);
    // A run alive on this machine (`excludeRunIds`, whatever its runs folder): nothing deleted, all of it reported as spared.
    const live = await plugin.cleanup!({ runId: fresh.ctx.runId, excludeRunIds: [fresh.ctx.runId] }, fresh.ctx);
    expect(live.found).toEqual([]);
    expect(live.spared?.map((r) => r.type).sort()).toEqual(freshFound.found.map((r) => r.type).sort());
    expect(live.spared?.every((r) => r.data?.['runId'] === fresh.ctx.runId)).toBe(true);

    const report = await plugin.cleanup!({ runId: lostId, olderThanMs: 86_400_000 }, lost.ctx);
    expect(report.failed).toEqual([]);
    expect(report.found).toHaveLength(expected.length);
    expect(await leftovers(lostId, tag)).toEqual([]);
    expect((await runCommand(['kill', '-0', String(sshdPid)])).code).not.toBe(0);
    // The fresh run is untouched.
    expect(await leftovers(fresh.ctx.runId, runTag(fresh.ctx.runId))).not.toEqual([]);
  }, 60_000);
});
