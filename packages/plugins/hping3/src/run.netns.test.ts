import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { SampleInput } from '@netbench/plugin-api';
import { labTrial, type TwoHostLab, testTrialContext, twoHostLab } from '@netbench/plugin-api/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hping3Plugin } from './plugin.js';

// Real hping3 between two namespaces this file creates (twoHostLab, nbt-hping3-<pid>…), deleted afterwards;
// a TCP listener on the server for SYN-ACKs, ping alongside for what hping3's RTT adds.
const plugin = hping3Plugin();
let lab: TwoHostLab;
let listener: ReturnType<typeof spawn> | undefined;
const PORT = 18080;

beforeAll(async () => {
  lab = await twoHostLab({ tag: 'hping3' });
  listener = spawn('ip', ['netns', 'exec', lab.serverNs, 'python3', '-m', 'http.server', String(PORT), '--bind', lab.serverIp], { stdio: 'ignore' });
  await new Promise((resolve) => setTimeout(resolve, 1500));
});
afterAll(async () => {
  listener?.kill();
  await lab?.close();
});

const metric = (samples: readonly SampleInput[], name: string) => samples.find((s) => s.metric === name) ?? expect.fail(`no ${name}`);

describe('hping3 run() between two namespaces', () => {
  it('SYN probes to a listening port: 50 SYN-ACKs, percentiles in 0.1 ms steps, raw output kept', async () => {
    const t = testTrialContext();
    try {
      const { samples } = await plugin.run(await labTrial(plugin, lab, { port: PORT, count: 50, interval: 10000 }), t.ctx);
      expect(metric(samples, 'Packets Sent').value).toBe(50);
      expect(metric(samples, 'Packet Loss').value).toBe(0);
      expect(metric(samples, 'Packets Received').labels).toMatchObject({ reply_flags: 'SA', port: PORT, mode: 'syn' });
      const p50 = metric(samples, 'Latency p50').value;
      expect(p50).toBeGreaterThan(0);
      expect(p50).toBeLessThan(20);
      const raw = readFileSync(t.saved.get('hping3-syn.txt')!, 'utf8');
      expect(raw.match(/^len=.* flags=SA .* rtt=\d+\.\d ms$/gm)).toHaveLength(50);
      console.log(
        `hping3 SYN RTT on a veth: p50 ${p50} ms, p90 ${metric(samples, 'Latency p90').value} ms, min ${metric(samples, 'Min Latency').value} ms, max ${metric(samples, 'Max Latency').value} ms`,
      );
    } finally {
      t.dispose();
    }
  });

  it('a closed port answers with RSTs; a silent address is 100 % loss with a warning', async () => {
    const t = testTrialContext();
    try {
      const closed = await plugin.run(await labTrial(plugin, lab, { port: 9, count: 10, interval: 10000 }), t.ctx);
      expect(metric(closed.samples, 'Packets Received').labels).toMatchObject({ reply_flags: 'RA' });
      const silent = await plugin.run(await labTrial(plugin, lab, { port: 9, count: 3, interval: 10000 }, { target: lab.silentIp }), t.ctx);
      expect(metric(silent.samples, 'Packet Loss').value).toBe(100);
      expect(t.warnings.join()).toMatch(/no replies \(3 sent\)/);
    } finally {
      t.dispose();
    }
  });

  it('flood for 2 s: packets per second, and the receiver counted about as many as were sent', async () => {
    const t = testTrialContext();
    try {
      const { samples } = await plugin.run(await labTrial(plugin, lab, { mode: 'flood', port: 9, duration: 2 }), t.ctx);
      const sent = metric(samples, 'Packets Sent').value;
      const received = metric(samples, 'Packets Received').value;
      console.log(`hping3 flood on a veth: ${sent} SYNs, ${metric(samples, 'Packet Rate').value.toFixed(0)} pps, ${received} received`);
      expect(metric(samples, 'Packet Rate').value).toBeGreaterThan(1000);
      expect(metric(samples, 'Send Time').value).toBeGreaterThan(1.9);
      // The receiver may get a few more (ARP) or fewer (the last packets in flight when hping3 stopped counting).
      expect(received).toBeGreaterThan(sent * 0.95);
      expect(received).toBeLessThan(sent * 1.05 + 20);
    } finally {
      t.dispose();
    }
  });
});
