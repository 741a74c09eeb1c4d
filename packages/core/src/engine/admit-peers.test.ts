import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnyPlugin, PeerHost } from '@netbench/plugin-api';
import { definePlugin, readLedger } from '@netbench/plugin-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Plan } from '../plan/types.js';
import { staticRegistry } from '../registry/static-registry.js';
import labCloud from './__fixtures__/lab-cloud.js';
import { sweep } from './__fixtures__/lab-leftovers.js';
import { labPlan } from './__fixtures__/lab-plan.js';
import labTool from './__fixtures__/lab-tool.js';
import { EXIT_CODES } from './exit-codes.js';
import { runPlan } from './run-plan.js';

let root: string;
let runsDir: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'nbt-peers-'));
  runsDir = join(root, 'runs');
  process.env['NETBENCH_DB'] = join(root, 'netbench.db');
});
afterEach(async () => {
  await sweep(runsDir);
  await rm(root, { recursive: true, force: true });
});

/**
 * A second lab cloud whose `admitPeers` makes a real resource: a rule file
 * listing the admitted addresses, tracked in the ledger and deleted by teardown.
 */
function peerCloud(name: string, options: { fail?: boolean; calls: PeerHost[][] }) {
  return definePlugin({
    kind: 'cloud',
    name,
    version: '0.0.1',
    hostSchema: labCloud.hostSchema,
    provision: labCloud.provision,
    async admitPeers(peers, ctx) {
      options.calls.push([...peers]);
      // The run's own resources are visible through the ledger: the rule goes next to the first host folder.
      const dir = ctx.ledger.entries.find((e) => e.resource.type === 'dir' && e.phase === 'created')?.resource.id;
      if (!dir) throw new Error('no host folder in the ledger');
      const file = join(dir, 'peers.rule');
      await ctx.ledger.track({ type: 'rule', id: file }, async () => {
        await writeFile(file, peers.flatMap((p) => p.addresses).join('\n'));
        if (options.fail) throw new Error('firewall refused the rule');
      });
    },
    async teardown(resource, ctx) {
      if (resource.type === 'rule') return rm(resource.id, { force: true });
      return labCloud.teardown(resource, ctx);
    },
  });
}

/** The lab plan with host `b` moved to another cloud. */
function twoCloudPlan(cloudOfB: string): Plan {
  const plan = labPlan({ root, runsDir, trials: [{ mode: 'ok' }] });
  return {
    ...plan,
    spec: { ...plan.spec, hosts: { ...plan.spec.hosts, b: { ...plan.spec.hosts['b']!, cloud: cloudOfB } } },
    fleet: plan.fleet.map((host) => (host.id === 'b' ? { ...host, cloud: cloudOfB } : host)),
  };
}

describe('admitPeers', () => {
  it("is called after every cloud provisioned, with the other clouds' hosts, and its rule is torn down", async () => {
    const calls: PeerHost[][] = [];
    const registry = staticRegistry([labCloud, labTool, peerCloud('lab2', { calls })] as AnyPlugin[]);
    const outcome = await runPlan(twoCloudPlan('lab2'), { registry, abortGraceMs: 500 });
    expect(outcome.exitCode).toBe(EXIT_CODES.ok);
    // lab2 (host b) admits host a of cloud lab; lab has no admitPeers and is not asked.
    expect(calls).toEqual([[{ id: 'a', cloud: 'lab', addresses: ['127.0.0.1'] }]]);

    const ledger = await readLedger(join(outcome.record.runDir, 'ledger.jsonl'));
    const rule = ledger.filter((e) => e.resource.type === 'rule');
    expect(rule.map((e) => [e.plugin, e.phase])).toEqual([
      ['lab2', 'intent'],
      ['lab2', 'created'],
      ['lab2', 'deleted'],
    ]);
    expect(existsSync(rule[0]!.resource.id)).toBe(false);
    // The rule was made before any trial ran: its ledger line precedes teardown of every host.
    const firstDelete = ledger.findIndex((e) => e.phase === 'deleted');
    expect(ledger.findIndex((e) => e.resource.type === 'rule' && e.phase === 'created')).toBeLessThan(firstDelete);
    const events = (await readFile(join(outcome.record.runDir, 'events.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; hook?: string; plugin?: string });
    const admit = events.findIndex((e) => e.type === 'plugin-call' && e.hook === 'admitPeers');
    const prepare = events.findIndex((e) => e.type === 'phase-started' && (e as { phase?: string }).phase === 'prepare');
    expect(admit).toBeGreaterThan(-1);
    expect(admit).toBeLessThan(prepare);
  });

  it('passes only IP addresses and warns about a host known by name only', async () => {
    const calls: PeerHost[][] = [];
    // Like a static machine given as `address: bench.example.org`: its host has a name, not an IP.
    const named = definePlugin({
      kind: 'cloud',
      name: 'named',
      version: '0.0.1',
      hostSchema: labCloud.hostSchema,
      async provision(requests, ctx) {
        return (await labCloud.provision(requests, ctx)).map((host) => ({ ...host, internalIp: 'localhost' }));
      },
      teardown: labCloud.teardown,
    });
    const registry = staticRegistry([named, labTool, peerCloud('lab2', { calls })] as AnyPlugin[]);
    const plan = twoCloudPlan('lab2');
    const outcome = await runPlan({ ...plan, fleet: plan.fleet.map((h) => (h.id === 'a' ? { ...h, cloud: 'named' } : h)) }, { registry, abortGraceMs: 500 });
    expect(outcome.exitCode).toBe(EXIT_CODES.ok);
    expect(calls).toEqual([]); // no peer with an IP: admitPeers is not called at all
    const events = await readFile(join(outcome.record.runDir, 'events.jsonl'), 'utf8');
    expect(events).toContain('host a (named) has no IP address (localhost)');
  });

  it('is not called when every host is on the same cloud', async () => {
    const calls: PeerHost[][] = [];
    const registry = staticRegistry([peerCloud('lab', { calls }), labTool] as AnyPlugin[]);
    const outcome = await runPlan(labPlan({ root, runsDir, trials: [{ mode: 'ok' }] }), { registry, abortGraceMs: 500 });
    expect(outcome.exitCode).toBe(EXIT_CODES.ok);
    expect(calls).toEqual([]);
  });

  it('a refused rule fails provisioning, runs no trial and tears everything down', async () => {
    const calls: PeerHost[][] = [];
    const registry = staticRegistry([labCloud, labTool, peerCloud('lab2', { calls, fail: true })] as AnyPlugin[]);
    const outcome = await runPlan(twoCloudPlan('lab2'), { registry, abortGraceMs: 500 });
    expect(outcome.exitCode).toBe(EXIT_CODES.provisionFailed);
    expect(calls).toHaveLength(1);
    const ledger = await readLedger(join(outcome.record.runDir, 'ledger.jsonl'));
    const created = new Set(ledger.filter((e) => e.phase === 'intent' || e.phase === 'created').map((e) => e.resource.id));
    const deleted = new Set(ledger.filter((e) => e.phase === 'deleted').map((e) => e.resource.id));
    expect([...created].filter((id) => !deleted.has(id))).toEqual([]);
    const results = JSON.parse(await readFile(join(outcome.record.runDir, 'results.json'), 'utf8')) as { run: { error?: string } };
    expect(JSON.stringify(results)).toContain('firewall refused the rule');
    const events = await readFile(join(outcome.record.runDir, 'events.jsonl'), 'utf8');
    expect(events).toContain('"host-ready"');
    expect(events).not.toContain('"trial-started"');
  });
});
