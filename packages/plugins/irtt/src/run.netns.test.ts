import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { FlowContext, SampleInput } from '@netbench/plugin-api';
import { labTrial, type TwoHostLab, testTrialContext, twoHostLab } from '@netbench/plugin-api/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { irttPlugin } from './plugin.js';

// A port range of its own, so this file never meets another test's servers.
const plugin = irttPlugin({ ports: { first: 2241, last: 2260 } });
let lab: TwoHostLab;

beforeAll(async () => {
  lab = await twoHostLab({ tag: 'irtt' });
});
afterAll(async () => {
  await lab?.close();
});

const irttProcesses = (ns: string) => lab.commands(ns).filter((c) => c.includes('irtt'));
const one = (samples: readonly SampleInput[], metric: string) => {
  const found = samples.filter((s) => s.metric === metric);
  expect(found, metric).toHaveLength(1);
  return found[0]!;
};

describe('irtt between two namespaces', () => {
  it('serve starts one server for the run; trials use it; stop leaves nothing', async () => {
    const t = testTrialContext();
    const info = await plugin.check(lab.server, t.ctx);
    expect(info.version).toMatch(/^\d+\.\d+/);
    const handle = await plugin.serve!(lab.server, info, t.ctx);
    try {
      expect(handle.data.port).toBeGreaterThanOrEqual(2241);
      expect(irttProcesses(lab.serverNs)).toHaveLength(1);
      const trial = await labTrial(plugin, lab, { interval: 0.01, duration: 1, length: 200, dscp: 46, perPacket: true }, { serverHandle: handle, serverInfo: info });
      const { samples } = await plugin.run(trial, t.ctx);
      const sent = one(samples, 'packets_sent').value;
      expect(sent).toBeGreaterThanOrEqual(90);
      expect(sent).toBeLessThanOrEqual(101);
      expect(one(samples, 'packet_loss').value).toBe(0);
      expect(one(samples, 'upstream_loss').value).toBe(0);
      const rtt = one(samples, 'rtt_mean');
      expect(rtt.value).toBeGreaterThan(0);
      expect(rtt.histogram!.count).toBe(one(samples, 'packets_received').value);
      // One-way delays share the machine's clock here, so they add up to the RTT less the server's own time.
      const oneWay = one(samples, 'send_delay_mean').value + one(samples, 'receive_delay_mean').value;
      expect(oneWay).toBeLessThanOrEqual(rtt.value * 1.01);
      expect(oneWay).toBeGreaterThan(rtt.value * 0.5);
      expect(rtt.labels).toMatchObject({ packet_length: 200, dscp: 46, interval: 0.01, destination: `${lab.serverIp}:${handle.data.port}` });
      expect(samples.filter((s) => s.metric === 'rtt' && s.labels?.series === 'per_packet')).toHaveLength(one(samples, 'packets_received').value);
      const json = JSON.parse(readFileSync(t.saved.get('irtt-client.json')!, 'utf8'));
      expect(json.config.params.dscp).toBe(46);
      // The client is gone; the run's server stays for the next trial.
      expect(irttProcesses(lab.clientNs)).toEqual([]);
      expect(irttProcesses(lab.serverNs)).toHaveLength(1);
    } finally {
      await handle.stop();
      t.dispose();
    }
    expect(irttProcesses(lab.serverNs)).toEqual([]);
  });

  it("cpus pins the client and a server of the trial's own (the run's shared one stays unpinned), and every sample says where each end ran", async () => {
    const t = testTrialContext();
    const info = await plugin.check(lab.server, t.ctx);
    const handle = await plugin.serve!(lab.server, info, t.ctx);
    const last = availableParallelism() - 1;
    try {
      const shared = await plugin.run(await labTrial(plugin, lab, { interval: 0.05, duration: 0.5 }, { serverHandle: handle, serverInfo: info }), t.ctx);
      // Unpinned: the kernel's answer for both ends all the same (the CPUs they may use), never a guess.
      expect(one(shared.samples, 'rtt_mean').labels).toMatchObject({
        cpu_client_affinity: expect.stringMatching(/^\d+(-\d+)?(,\d+(-\d+)?)*$/),
        cpu_server_affinity: expect.stringMatching(/^\d+(-\d+)?(,\d+(-\d+)?)*$/),
      });
      const trial = await labTrial(plugin, lab, { interval: 0.05, duration: 0.5, cpus: { client: last, server: 0 } }, { serverHandle: handle, serverInfo: info });
      expect(trial.params).toMatchObject({ cpu_client: last, cpu_server: 0 });
      const { samples } = await plugin.run(trial, t.ctx);
      expect(one(samples, 'packets_received').value).toBeGreaterThan(5);
      expect(one(samples, 'rtt_mean').labels).toMatchObject({ cpu_client: last, cpu_server: 0, cpu_client_affinity: String(last), cpu_server_affinity: '0' });
      // The pinned server was the trial's own and is gone; the run's server is still there.
      expect(irttProcesses(lab.serverNs)).toHaveLength(1);
      expect(lab.commands(lab.serverNs).some((c) => c.includes('taskset'))).toBe(false);
    } finally {
      await handle.stop();
      t.dispose();
    }
  });

  it('without serve, a one-off server is started and stopped around the trial', async () => {
    const t = testTrialContext();
    try {
      const trial = await labTrial(plugin, lab, { interval: 0.05, duration: 0.5 });
      const { samples } = await plugin.run(trial, t.ctx);
      expect(one(samples, 'packets_received').value).toBeGreaterThan(5);
      expect(irttProcesses(lab.serverNs)).toEqual([]);
    } finally {
      t.dispose();
    }
  });

  it('as a flow: held until release, then every packet RTT and both one-way delays stream as interval samples', async () => {
    const t = testTrialContext();
    const intervals: SampleInput[] = [];
    let released!: () => void;
    const gate = new Promise<void>((resolve) => {
      released = resolve;
    });
    let startedAt = 0;
    const flow: FlowContext = {
      label: 'client->server',
      index: 0,
      count: 1,
      release: () => gate,
      started: () => {
        startedAt = Date.now();
      },
      interval: (sample) => intervals.push(sample),
    };
    try {
      const trial = await labTrial(plugin, lab, { interval: 0.02, duration: 1 });
      const running = plugin.run(trial, { ...t.ctx, flow });
      await new Promise((resolve) => setTimeout(resolve, 300));
      // Nothing measured before the barrier.
      expect(intervals).toEqual([]);
      released();
      const { samples } = await running;
      expect(startedAt).toBeGreaterThan(0);
      const received = one(samples, 'packets_received').value;
      // Per received packet: its RTT and both one-way delays (one machine's clock: both are known).
      const of = (metric: string) => intervals.filter((s) => s.metric === metric);
      for (const metric of ['rtt', 'send_delay', 'receive_delay']) expect(of(metric)).toHaveLength(received);
      expect(intervals.every((s) => s.unit === 'ms' && s.value > 0 && s.timestamp! >= startedAt)).toBe(true);
      // The streamed values are the JSON's, rounded as irtt prints them.
      const median = (metric: string) => [...of(metric).map((s) => s.value)].sort((a, b) => a - b)[Math.floor(received / 2)]!;
      expect(median('rtt')).toBeCloseTo(one(samples, 'rtt_median').value, 1);
      expect(median('send_delay')).toBeCloseTo(one(samples, 'send_delay_median').value, 1);
    } finally {
      t.dispose();
    }
  });

  it('a flow released with an error runs nothing', async () => {
    const t = testTrialContext();
    const flow: FlowContext = {
      label: 'x',
      index: 0,
      count: 2,
      release: () => Promise.reject(new Error('another flow failed')),
      started: () => {
        throw new Error('must not start');
      },
      interval: () => {
        throw new Error('must not measure');
      },
    };
    try {
      const trial = await labTrial(plugin, lab, { interval: 0.02, duration: 1 });
      await expect(plugin.run(trial, { ...t.ctx, flow })).rejects.toThrow('another flow failed');
      expect(irttProcesses(lab.clientNs)).toEqual([]);
    } finally {
      t.dispose();
    }
  });

  it('no server at the address: a clear error naming the client and target', async () => {
    const t = testTrialContext();
    try {
      const trial = await labTrial(plugin, lab, { interval: 0.05, duration: 0.5 }, { serverHandle: { data: { port: 2299 }, stop: async () => {} } });
      await expect(plugin.run(trial, t.ctx)).rejects.toThrow(/irtt client on client to 10\.213\.0\.2 failed: .*connection refused/);
      expect(t.saved.has('irtt-client.txt')).toBe(true);
    } finally {
      t.dispose();
    }
  });
});
