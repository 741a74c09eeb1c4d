import { release } from 'node:os';
import type { Host } from '@netbench/plugin-api';
import { qdiscProblem, runCommand } from '@netbench/plugin-api/cloud-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostSchema } from './host-schema.js';
import plugin from './index.js';
import { hubName } from './naming.js';
import { request, testRun } from './test-support/lab.js';

const qdiscs = async (netns: string) => {
  const result = await runCommand(['tc', '-n', netns, '-s', 'qdisc', 'show', 'dev', 'eth0']);
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
};
const classes = async (netns: string) => (await runCommand(['tc', '-n', netns, 'class', 'show', 'dev', 'eth0'])).stdout;

describe('local lab: the queue of a shaped link, read back from tc', () => {
  const run = testRun();
  let hosts: Host[] = [];

  beforeAll(async () => {
    hosts = await plugin.provision(
      [
        request('shallow', { link: hostSchema.shape.link.parse({ rate: '100mbit', burst: '32kb', limit: '60kb' }) }),
        request('deep', { link: hostSchema.shape.link.parse({ rate: '100mbit', latency: '200ms' }) }),
        request('htb', { link: hostSchema.shape.link.parse({ rate: '50mbit', qdisc: 'htb', burst: '15kb', child: 'pfifo', limit: 100 }) }),
      ],
      run.ctx,
    );
  }, 60_000);

  afterAll(async () => {
    await run.teardown(plugin);
    run.dispose();
  }, 60_000);

  it('tbf gets the burst and limit the spec asked for', async () => {
    const netns = hosts[0]!.labels.netns as string;
    expect(await qdiscs(netns)).toMatch(/qdisc tbf 1: root refcnt \d+ rate 100Mbit burst 32Kb lat [\d.]+ms/);
    // tc shows a tbf limit as the wait it allows: (limit − burst) / rate = (61,440 − 32,768) B × 8 / 100 Mbit/s = 2,294 µs.
    const [tbf] = JSON.parse((await runCommand(['tc', '-n', netns, '-j', 'qdisc', 'show', 'dev', 'eth0'])).stdout) as { kind: string; options: { rate: number; lat: number } }[];
    expect(tbf).toMatchObject({ kind: 'tbf', options: { rate: 12_500_000 } });
    expect(Math.abs(tbf!.options.lat - 2294)).toBeLessThanOrEqual(1);
    expect(hosts[0]!.labels).toMatchObject({ link_qdisc: 'tbf', link_burst: '32kb', link_limit: '60kb' });
  });

  it('tbf with latency holds rate × latency (200 ms at 100 Mbit/s is about 2.5 MB)', async () => {
    const shown = await qdiscs(hosts[1]!.labels.netns as string);
    expect(shown).toMatch(/qdisc tbf 1: root refcnt \d+ rate 100Mbit burst \d+Kb lat 200ms/);
  });

  it('htb: the rate class with its burst and the pfifo child with its limit', async () => {
    const netns = hosts[2]!.labels.netns as string;
    const shown = await qdiscs(netns);
    expect(shown).toMatch(/qdisc htb 1: root/);
    expect(shown).toMatch(/qdisc pfifo 10: parent 1:1 limit 100p/);
    expect(await classes(netns)).toMatch(/class htb 1:1 root leaf 10: prio 0 rate 50Mbit ceil 50Mbit burst 15Kb/);
  });
});

/** The bridge's port toward a namespace: the hub-side peer of its eth0 (eth0's iflink is its ifindex in the hub). */
async function bridgePort(netns: string, hub: string): Promise<string> {
  const [eth0] = JSON.parse((await runCommand(['ip', '-n', netns, '-j', 'link', 'show', 'dev', 'eth0'])).stdout) as { link_index: number }[];
  const links = JSON.parse((await runCommand(['ip', '-n', hub, '-j', 'link', 'show'])).stdout) as { ifindex: number; ifname: string }[];
  return links.find((l) => l.ifindex === eth0!.link_index)!.ifname;
}

describe('local lab: ingressRate queues on the bridge port toward the host', () => {
  const run = testRun();
  let host: Host;

  beforeAll(async () => {
    host = (await plugin.provision([request('inbound', { link: hostSchema.shape.link.parse({ ingressRate: '100mbit', burst: '64kb', latency: '200ms' }) })], run.ctx))[0]!;
  }, 60_000);

  afterAll(async () => {
    await run.teardown(plugin);
    run.dispose();
  }, 60_000);

  it("tbf with the queue fields on the bridge side of the veth (in the hub); the namespace's own eth0 is left alone", async () => {
    const netns = host.labels.netns as string;
    const hub = hubName(run.ctx.runId);
    const port = await bridgePort(netns, hub);
    const [tbf] = JSON.parse((await runCommand(['tc', '-n', hub, '-j', 'qdisc', 'show', 'dev', port])).stdout) as {
      kind: string;
      root?: boolean;
      options: { rate: number; burst: number; lat: number };
    }[];
    expect(tbf).toMatchObject({ kind: 'tbf', root: true, options: { rate: 12_500_000, lat: 200_000 } });
    // tc stores the bucket in scheduler ticks, so 64 KiB reads back a few bytes short.
    expect(Math.abs(tbf!.options.burst - 65_536)).toBeLessThan(64);
    expect(await qdiscs(netns)).not.toMatch(/tbf|htb/);
    expect(host.labels).toMatchObject({ link_ingress_rate: '100mbit', link_qdisc: 'tbf', link_burst: '64kb', link_latency: '200ms' });
  });
});

describe('local lab: child qdiscs this kernel lacks are refused before anything is made', () => {
  // The AQMs that cure bufferbloat; whichever this kernel lacks must be refused by name (this one lacks all three).
  it.each(['fq_codel', 'cake', 'pie'] as const)("%s: names the host, the field, tc's complaint and the kernel", async (child) => {
    const missing = (await qdiscProblem(child)) !== undefined;
    const run = testRun();
    try {
      const requests = [request('a', { link: hostSchema.shape.link.parse({ rate: '10mbit', qdisc: 'htb', child }) })];
      if (missing) {
        await expect(plugin.preflight!(requests, run.ctx)).rejects.toThrow(
          new RegExp(`local: host a \\(link.child: ${child}: .+\\): this kernel \\(${release().replace(/[.+]/g, '\\$&')}\\) has no such queueing discipline`),
        );
        expect(run.ctx.ledger.entries).toEqual([]);
      } else {
        await expect(plugin.preflight!(requests, run.ctx)).resolves.toBeUndefined();
      }
    } finally {
      run.dispose();
    }
  });
});
