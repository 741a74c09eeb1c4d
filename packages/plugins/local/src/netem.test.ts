import { UnsupportedError } from '@netbench/plugin-api';
import { afterAll, expect, it } from 'vitest';
import plugin, { localCapabilities } from './index.js';
import { runTag } from './naming.js';
import { hostRun, leftovers, request, testRun } from './test-support/lab.js';

const run = testRun();

afterAll(async () => {
  await run.teardown(plugin);
  run.dispose();
}, 60_000);

// One test for both kernels: the detected capability decides which promise is checked.
it('adds link.delay with netem where the kernel has it, and refuses it in preflight where it has not', async () => {
  const caps = await localCapabilities();
  expect(caps.netns).toBe(true);
  const requests = [request('client', { link: { delay: '20ms', loss: '0%' } }), request('server')];

  if (!caps.netem) {
    expect(caps.detail.netem).toMatch(/sch_netem/);
    const refusal = plugin.preflight!(requests, run.ctx);
    await expect(refusal).rejects.toBeInstanceOf(UnsupportedError);
    await expect(refusal).rejects.toThrow(/host client \(link\.delay, link\.loss\).*sch_netem.*modprobe sch_netem/);
    // provision refuses too, before making anything.
    await expect(plugin.provision(requests, run.ctx)).rejects.toBeInstanceOf(UnsupportedError);
    expect(run.ctx.ledger.entries).toEqual([]);
    expect(await leftovers(run.ctx.runId, runTag(run.ctx.runId))).toEqual([]);
    return;
  }

  await plugin.preflight!(requests, run.ctx);
  const [client, server] = await plugin.provision(requests, run.ctx);
  const out = await hostRun(client!, ['ping', '-c', '5', '-i', '0.2', '-W', '2', server!.internalIp]);
  const min = Number(/= ([\d.]+)\//.exec(out)?.[1]);
  expect(min).toBeGreaterThanOrEqual(20);
}, 30_000);
