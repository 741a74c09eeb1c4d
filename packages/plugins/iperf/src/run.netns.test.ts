import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { SampleInput } from '@netbench/plugin-api';
import { labTrial, type TwoHostLab, testTrialContext, twoHostLab } from '@netbench/plugin-api/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { iperfPlugin } from './plugin.js';

// Real iperf 2 between two namespaces this file creates (twoHostLab, nbt-iperf-<pid>…), deleted afterwards.
const plugin = iperfPlugin({ ports: { first: 5461, last: 5463 } });
let lab: TwoHostLab;

beforeAll(async () => {
  lab = await twoHostLab({ tag: 'iperf' });
});
afterAll(async () => {
  await lab?.close();
});

const one = (samples: readonly SampleInput[], metric: string, direction = 'forward') => {
  const found = samples.filter((s) => s.metric === metric && s.labels?.direction === direction);
  expect(found, metric).toHaveLength(1);
  return found[0]!;
};
const iperfProcesses = () => lab.commands(lab.serverNs).filter((c) => c.startsWith('iperf'));

describe('iperf run() between two namespaces', () => {
  it('TCP, 2 streams, 0.5 s intervals: PKB Throughput, retransmits, RTT, the series; both raw outputs kept; server stopped', async () => {
    const t = testTrialContext();
    try {
      const { samples } = await plugin.run(await labTrial(plugin, lab, { streams: 2, duration: 1, interval: 0.5 }), t.ctx);
      const throughput = one(samples, 'Throughput');
      expect(throughput.value).toBeGreaterThan(10);
      expect(throughput.unit).toBe('Mbits/sec');
      expect(throughput.labels).toMatchObject({ protocol: 'tcp', streams: 2, duration: 1, interval: 0.5, measured_at: 'sender', enhanced_reports: true });
      expect(one(samples, 'Retransmits').value).toBeGreaterThanOrEqual(0);
      expect(one(samples, 'RTT').value).toBeGreaterThan(0);
      expect(samples.filter((s) => s.metric === 'Interval Throughput').length).toBeGreaterThanOrEqual(2);
      expect(readFileSync(t.saved.get('iperf-client.txt')!, 'utf8')).toMatch(/\[SUM\] 0\.0+-/);
      // The server's report for this trial's connections (a shared server's banner came before the trial).
      expect(readFileSync(t.saved.get('iperf-server.txt')!, 'utf8')).toMatch(/connected with[\s\S]*\[SUM\] 0\.0+-/);
      expect(t.progress.at(-1)).toEqual({ fraction: 1, message: '1/1 s' });
      expect(iperfProcesses()).toEqual([]);
    } finally {
      t.dispose();
    }
  });

  it('UDP at 50 Mbit/s: the server report gives receiver throughput, jitter and loss', async () => {
    const t = testTrialContext();
    try {
      const { samples } = await plugin.run(await labTrial(plugin, lab, { protocol: 'udp', bitrate: '50M', duration: 1 }), t.ctx);
      const udp = one(samples, 'UDP Throughput');
      // What arrived: at most what was sent (~50), less what a busy receiver dropped.
      expect(udp.value).toBeGreaterThan(5);
      expect(udp.value).toBeLessThan(60);
      expect(one(samples, 'Sent Throughput').value).toBeGreaterThan(40);
      expect(udp.labels).toMatchObject({ measured_at: 'receiver', bitrate: '50M' });
      const total = one(samples, 'Total Datagrams').value;
      const lost = one(samples, 'Lost Datagrams').value;
      expect(total).toBeGreaterThan(3000);
      expect(lost).toBeLessThanOrEqual(total);
      expect(one(samples, 'Packet Loss').value).toBeCloseTo((lost / total) * 100, 10);
      expect(one(samples, 'Jitter').value).toBeGreaterThanOrEqual(0);
      expect(iperfProcesses()).toEqual([]);
    } finally {
      t.dispose();
    }
  });

  it('reverse (-R): the server sends, the sample is the reverse direction', async () => {
    const t = testTrialContext();
    try {
      const { samples } = await plugin.run(await labTrial(plugin, lab, { reverse: true, duration: 1 }), t.ctx);
      expect(one(samples, 'Throughput', 'reverse').value).toBeGreaterThan(10);
      expect(samples.some((s) => s.labels?.direction === 'forward')).toBe(false);
    } finally {
      t.dispose();
    }
  });

  it('skips a port another program holds', async () => {
    const blocker = spawn('ip', ['netns', 'exec', lab.serverNs, 'iperf', '-s', '-p', '5461'], { stdio: 'ignore' });
    const t = testTrialContext();
    try {
      for (let i = 0; i < 50 && !execFileSync('ip', ['netns', 'exec', lab.serverNs, 'cat', '/proc/net/tcp']).toString().includes(':1555 '); i += 1)
        await new Promise((r) => setTimeout(r, 50));
      const { samples } = await plugin.run(await labTrial(plugin, lab, { duration: 1 }), t.ctx);
      expect(one(samples, 'Throughput').value).toBeGreaterThan(10);
      expect(readFileSync(t.saved.get('iperf-server.txt')!, 'utf8')).toMatch(/port 546[23]/);
      expect(blocker.exitCode).toBeNull();
    } finally {
      blocker.kill('SIGKILL');
      t.dispose();
    }
  });

  it('an interrupt stops the client and the server', async () => {
    const t = testTrialContext();
    try {
      const running = plugin.run(await labTrial(plugin, lab, { duration: 30 }), t.ctx);
      await new Promise((r) => setTimeout(r, 1000));
      t.controller.abort(new Error('interrupted by test'));
      await expect(running).rejects.toThrow(/interrupted by test/);
      expect(lab.commands(lab.clientNs).filter((c) => c.startsWith('iperf'))).toEqual([]);
      expect(iperfProcesses()).toEqual([]);
    } finally {
      t.dispose();
    }
  });

  it('served: one server per host and server arguments, reused by later trials, all stopped with the handle', async () => {
    const t = testTrialContext();
    const served = iperfPlugin({ ports: { first: 5464, last: 5467 } });
    const info = await served.check(lab.server, t.ctx);
    const handle = await served.serve!(lab.server, info, t.ctx);
    try {
      // serve started the common server (TCP, default window) in prepare.
      expect(iperfProcesses()).toHaveLength(1);
      const port = (handle.data.ports as number[])[0];
      const trial = async (block: Record<string, unknown>) => ({ ...(await labTrial(served, lab, block)), serverHandle: handle });
      for (const block of [{ duration: 1 }, { duration: 1 }]) {
        const { samples } = await served.run(await trial(block), t.ctx);
        expect(samples.some((s) => s.metric === 'Throughput' && s.value > 10)).toBe(true);
      }
      // Reverse trials never share a server (iperf 2.1.8's aborts after a few of them):
      // each gets its own, on another port, stopped after it; the common one is left alone.
      const common = iperfProcesses();
      for (let i = 0; i < 2; i += 1) {
        const reverse = testTrialContext();
        try {
          const { samples } = await served.run(await trial({ duration: 1, reverse: true }), reverse.ctx);
          expect(samples.some((s) => s.metric === 'Throughput' && s.labels?.direction === 'reverse' && s.value > 10)).toBe(true);
          const report = readFileSync(reverse.saved.get('iperf-server.txt')!, 'utf8');
          const used = /local \S+ port (\d+) connected with .*\(reverse\)/.exec(report);
          expect(used, report).not.toBeNull();
          expect(Number(used![1])).not.toBe(port);
        } finally {
          reverse.dispose();
        }
        expect(iperfProcesses()).toEqual(common);
      }
      // Still the one server, on the port it started on; each trial kept its own connection's report.
      expect(iperfProcesses()).toHaveLength(1);
      expect(handle.data.ports).toEqual([port]);
      expect(readFileSync(t.saved.get('iperf-server.txt')!, 'utf8')).toMatch(new RegExp(`port ${port} connected with`));
      // A trial needing a server started differently (a window) gets a second one, kept for later such trials.
      const first = testTrialContext();
      await served.run(await trial({ window: '256K', duration: 1 }), first.ctx);
      expect(iperfProcesses()).toHaveLength(2);
      // The trial that started it is over: its signal aborting later must not stop the server.
      first.controller.abort(new Error("the first trial's deadline"));
      first.dispose();
      const windowed = iperfProcesses().find((c) => c.includes(' -w '));
      expect(windowed).toBeDefined();
      await served.run(await trial({ window: '256K', duration: 1 }), t.ctx);
      expect(iperfProcesses()).toHaveLength(2);
      expect(iperfProcesses().find((c) => c.includes(' -w '))).toBe(windowed);
      // UDP servers are not reused (an iperf 2 UDP server can exit when the next client comes at once):
      // each UDP trial starts its own and stops it.
      await served.run(await trial({ protocol: 'udp', bitrate: '10M', duration: 1 }), t.ctx);
      await served.run(await trial({ protocol: 'udp', bitrate: '10M', duration: 1 }), t.ctx);
      expect(iperfProcesses()).toHaveLength(2);
      expect(iperfProcesses().some((c) => c.includes(' -u'))).toBe(false);
    } finally {
      await handle.stop();
      t.dispose();
    }
    expect(iperfProcesses()).toEqual([]);
    await handle.stop(); // idempotent
    // After teardown no trial may start a server the run would not stop.
    await expect(served.run({ ...(await labTrial(served, lab, { duration: 1 })), serverHandle: handle }, testTrialContext().ctx)).rejects.toThrow(/already stopped/);
    expect(iperfProcesses()).toEqual([]);
  });
});
