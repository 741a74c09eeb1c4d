// labTrial: a block becomes the TrialRun the engine would build (the plugin's
// own schema, trials and check, on the right hosts), and runs for real
// between the lab's namespaces with a testTrialContext.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { definePlugin } from '../plugin/define-plugin.js';
import type { Host } from '../plugin/host.js';
import { z } from '../plugin/zod.js';
import { labTrial, type TwoHostLab, testTrialContext, twoHostLab } from './index.js';

// A small real tool: ping, with `check` reporting the address of the host it ran on.
const checkedOn: string[] = [];
const pinger = definePlugin({
  kind: 'tool',
  name: 'lab-ping',
  schema: z.strictObject({ count: z.int().min(1).default(2), direction: z.enum(['forward', 'both']).default('forward') }),
  trials: (p) =>
    (p.direction === 'both' ? ['forward', 'reverse'] : ['forward']).map((direction) => ({ test: 'ping', params: { count: p.count, direction }, estimatedSeconds: p.count })),
  async check(host: Host) {
    const addr = /inet (\d+\.\d+\.\d+\.\d+)\/24/.exec((await host.exec(['ip', '-4', '-o', 'addr', 'show'])).stdout)?.[1] ?? 'none';
    checkedOn.push(addr);
    return { version: '1', features: { address: addr } };
  },
  async run(trial, ctx) {
    const reverse = trial.params.direction === 'reverse';
    // Reverse: the server pings the client's address, as the built-in ping plugin does.
    const sender = reverse ? trial.server : trial.client;
    const to = reverse ? String(trial.clientInfo.features.address) : trial.target;
    const result = await sender.exec(['ping', '-c', String(trial.params.count), '-i', '0.2', '-W', '1', to], { signal: ctx.signal });
    await ctx.saveRaw(`${trial.id}-ping.txt`, result.stdout);
    const samples = this.parse(result.stdout);
    if (samples[0]!.value === 100) ctx.log.warn(`no replies from ${to}`);
    ctx.progress(1);
    return { samples };
  },
  parse(raw) {
    const loss = /(\d+(?:\.\d+)?)% packet loss/.exec(raw)?.[1];
    if (loss === undefined) throw new Error('no packet loss line');
    return [{ metric: 'Packet Loss', value: Number(loss), unit: '%' }];
  },
});

let lab: TwoHostLab;
beforeAll(async () => {
  lab = await twoHostLab({ tag: 'labtrial', subnet: '10.213.92' });
});
afterAll(async () => {
  await lab?.close();
});

describe('labTrial', () => {
  it('parses the block with the plugin schema, checks both hosts and targets the server; the trial runs between the namespaces', async () => {
    checkedOn.length = 0;
    const trial = await labTrial(pinger, lab, { count: 3 });
    expect(trial).toMatchObject({ test: 'ping', params: { count: 3, direction: 'forward' }, client: lab.client, server: lab.server, target: lab.serverIp, attempt: 0 });
    expect(trial.id).toMatch(/^t\d{4}$/);
    expect(trial.serverHandle).toBeUndefined();
    expect(trial.clientInfo.features.address).toBe(lab.clientIp);
    expect(trial.serverInfo.features.address).toBe(lab.serverIp);
    expect(checkedOn.sort()).toEqual([lab.clientIp, lab.serverIp].sort());

    const t = testTrialContext();
    try {
      const { samples } = await pinger.run(trial, t.ctx);
      expect(samples[0]).toMatchObject({ metric: 'Packet Loss', value: 0 });
      expect([...t.saved.keys()]).toEqual([`${trial.id}-ping.txt`]);
      expect(t.warnings).toEqual([]);
    } finally {
      t.dispose();
    }
  });

  it('picks a trial by index and takes another target', async () => {
    const reverse = await labTrial(pinger, lab, { count: 1, direction: 'both' }, { index: 1 });
    expect(reverse.params.direction).toBe('reverse');
    const lossy = await labTrial(pinger, lab, { count: 2 }, { target: lab.silentIp });
    expect(lossy.target).toBe(lab.silentIp);
    const t = testTrialContext();
    try {
      expect((await pinger.run(reverse, t.ctx)).samples[0]!.value).toBe(0);
      expect((await pinger.run(lossy, t.ctx)).samples[0]!.value).toBe(100);
      expect(t.warnings).toEqual([`no replies from ${lab.silentIp}`]);
    } finally {
      t.dispose();
    }
  });

  it('reuses given check results and passes the server handle and id on; default ids differ', async () => {
    checkedOn.length = 0;
    const info = { version: '9', features: { address: 'given' } };
    const handle = { data: { port: 5001 }, stop: async () => {} };
    const given = await labTrial(pinger, lab, {}, { clientInfo: info, serverInfo: info, serverHandle: handle, id: 'mine' });
    expect(checkedOn).toEqual([]);
    expect(given).toMatchObject({ id: 'mine', clientInfo: info, serverInfo: info, serverHandle: handle });
    const [a, b] = await Promise.all([labTrial(pinger, lab, {}, { clientInfo: info }), labTrial(pinger, lab, {}, { clientInfo: info })]);
    expect(checkedOn).toEqual([lab.serverIp, lab.serverIp]);
    expect(a!.id).not.toBe(b!.id);
  });

  it('rejects a block the schema refuses and an index past the trials, before checking', async () => {
    checkedOn.length = 0;
    await expect(labTrial(pinger, lab, { count: 0 })).rejects.toThrow(/count/);
    await expect(labTrial(pinger, lab, { cont: 3 })).rejects.toThrow(/cont/);
    await expect(labTrial(pinger, lab, { direction: 'both' }, { index: 2 })).rejects.toThrow(/lab-ping gives 2 trial\(s\) for \{"direction":"both"\}; there is no index 2/);
    expect(checkedOn).toEqual([]);
  });
});
