import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Host } from '@netbench/plugin-api';
import { runCommand } from '@netbench/plugin-api/cloud-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findForwardRules } from './forward-rule.js';
import plugin from './index.js';
import { bridgeName, hubName, runTag } from './naming.js';
import { hostRun, leftovers, request, testRun } from './test-support/lab.js';

describe('local lab: two namespaces on a bridge', () => {
  const run = testRun();
  const { runId } = run.ctx;
  const tag = runTag(runId);
  let hosts: Host[] = [];
  let provisionMs = 0;

  beforeAll(async () => {
    const began = performance.now();
    hosts = await plugin.provision([request('client', { link: { rate: '200mbit' } }), request('server', { address: '10.213.0.20' })], run.ctx);
    provisionMs = performance.now() - began;
    console.log(`provision of 2 hosts: ${provisionMs.toFixed(0)} ms`);
  }, 60_000);

  afterAll(async () => {
    await run.teardown(plugin);
    run.dispose();
  }, 60_000);

  it('returns hosts with their addresses, netns prefix labels and OS', () => {
    const [client, server] = hosts;
    expect(client?.internalIp).toBe('10.213.0.1');
    expect(server?.internalIp).toBe('10.213.0.20');
    expect(server?.labels.netns).toBe(`nb-${runId}-server`);
    expect(client?.labels.link_rate).toBe('200mbit');
    expect(server?.zone).toBe('local');
    expect(server?.os).toMatch(/\S/);
  });

  it('records every resource in the ledger before creating it', () => {
    const entries = run.ctx.ledger.entries;
    for (const [index, entry] of entries.entries()) {
      if (entry.phase !== 'created') continue;
      const firstSeen = entries.findIndex((e) => e.resource.type === entry.resource.type && e.resource.id === entry.resource.id);
      // Every creation is preceded by its intent (the sshd-free lab has no after-the-fact records).
      expect(entries[firstSeen]?.phase, `${entry.resource.type} ${entry.resource.id}`).toBe('intent');
      expect(firstSeen).toBeLessThan(index);
    }
    const made = entries.filter((e) => e.phase === 'created').map((e) => `${e.resource.type} ${e.resource.id}`);
    // Every namespace first (the hub's and the hosts', one process), then the bridge and the veths (one
    // process in the hub: each veth's bridge end is enslaved as it is made), then each host's own. No
    // FORWARD rule: nothing of the lab is in the machine's own namespace.
    const hub = `netns nb-${runId}-@hub`;
    const client = [`netns nb-${runId}-client`, `veth nb${tag}h0`, 'process spawned@client'];
    const server = [`netns nb-${runId}-server`, `veth nb${tag}h1`, 'process spawned@server'];
    expect([...made].sort()).toEqual([hub, `bridge nb${tag}br`, ...client, ...server].sort());
    expect(made.filter((m) => client.includes(m))).toEqual(client);
    expect(made.filter((m) => server.includes(m))).toEqual(server);
    const at = (what: string) => made.indexOf(what);
    const namespaces = [hub, client[0]!, server[0]!];
    for (const link of [`bridge nb${tag}br`, `veth nb${tag}h0`, `veth nb${tag}h1`]) {
      for (const netns of namespaces) expect(at(link), `${link} after ${netns}`).toBeGreaterThan(at(netns));
    }
    // Within the hub's one process the bridge comes first: its intent precedes every veth's.
    const intents = entries.filter((e) => e.phase === 'intent').map((e) => `${e.resource.type} ${e.resource.id}`);
    for (const veth of [`veth nb${tag}h0`, `veth nb${tag}h1`]) expect(intents.indexOf(veth), veth).toBeGreaterThan(intents.indexOf(`bridge nb${tag}br`));
    // The hub is the first resource the ledger records (its intent), so it is deleted last.
    expect(`${entries[0]?.resource.type} ${entries[0]?.resource.id}`).toBe(hub);
  });

  it("keeps the list of each host's spawned processes owner-only (0600 in a 0700 folder)", () => {
    const files = new Set(run.ctx.ledger.entries.filter((e) => e.resource.type === 'process' && e.resource.id.startsWith('spawned@')).map((e) => String(e.resource.data?.pidFile)));
    expect(files.size).toBe(2);
    for (const file of files) {
      expect((statSync(file).mode & 0o777).toString(8), file).toBe('600');
      expect((statSync(dirname(file)).mode & 0o777).toString(8), dirname(file)).toBe('700');
    }
  });

  it('puts eth0 with its address in each namespace and no address on the bridge', async () => {
    const inside = await hostRun(hosts[1]!, ['ip', '-o', '-4', 'addr', 'show', 'dev', 'eth0']);
    expect(inside).toContain('inet 10.213.0.20/24');
    // The bridge and the veths' bridge ends live in the hub namespace, none in the machine's own.
    const hub = hubName(runId);
    const bridge = await runCommand(['ip', '-n', hub, '-o', 'addr', 'show', 'dev', bridgeName(runId)]);
    expect(bridge.code).toBe(0);
    expect(bridge.stdout).not.toMatch(/inet6? /);
    expect((await runCommand(['ip', 'link', 'show', 'dev', bridgeName(runId)])).code).not.toBe(0);
    expect((await runCommand(['ip', '-n', hub, '-o', 'link', 'show', 'master', bridgeName(runId)])).stdout).toMatch(
      new RegExp(`nb${tag}h0.*\\n.*nb${tag}h1|nb${tag}h1.*\\n.*nb${tag}h0`),
    );
    const routes = await runCommand(['ip', '-n', hub, 'route', 'show', 'dev', bridgeName(runId)]);
    expect(routes.stdout.trim()).toBe('');
  });

  it('lets the hosts ping each other from inside their namespaces', async () => {
    const [client, server] = hosts as [Host, Host];
    const there = await hostRun(client, ['ping', '-c', '3', '-i', '0.2', '-W', '2', server.internalIp]);
    expect(there).toMatch(/3 packets transmitted, 3 received/);
    const back = await hostRun(server, ['ping', '-c', '2', '-i', '0.2', '-W', '2', client.internalIp]);
    expect(back).toMatch(/2 packets transmitted, 2 received/);
  });

  it('shapes the client egress to 200 Mbit/s, measured with iperf3', async () => {
    const [client, server] = hosts as [Host, Host];
    const iperfServer = server.spawn(['iperf3', '-s', '-1', '-B', server.internalIp, '-p', '5201']);
    try {
      // Wait until the server listens (its own namespace's view).
      for (let i = 0; i < 100; i += 1) {
        const ss = await hostRun(server, ['ss', '-Hltn', 'sport = :5201']);
        if (ss.includes('5201')) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const out = await hostRun(client, ['iperf3', '-c', server.internalIp, '-p', '5201', '-t', '2', '-O', '1', '-J']);
      const report = JSON.parse(out) as { end: { sum_received: { bits_per_second: number } } };
      const mbit = report.end.sum_received.bits_per_second / 1e6;
      console.log(`iperf3 through tbf rate 200mbit: ${mbit.toFixed(1)} Mbit/s`);
      expect(mbit).toBeGreaterThan(180);
      expect(mbit).toBeLessThan(220);
    } finally {
      iperfServer.kill();
      await iperfServer.exited;
    }
  }, 30_000);

  it('tears down from the ledger alone, leaving nothing, and a second teardown succeeds', async () => {
    const server = hosts[1]!;
    // A straggler the tools forgot: teardown must reap it.
    const straggler = server.spawn(['sleep', '600']);
    const began = performance.now();
    expect(await run.teardown(plugin)).toEqual([]);
    console.log(`teardown of 2 hosts: ${(performance.now() - began).toFixed(0)} ms`);
    const exit = await straggler.exited;
    expect(exit.signal ?? exit.code).not.toBe(0);
    expect(await leftovers(runId, tag)).toEqual([]);
    expect((await findForwardRules()).filter((r) => r.runId === runId)).toEqual([]);
    expect(await run.teardown(plugin)).toEqual([]);
  }, 30_000);
});
