import { readFileSync } from 'node:fs';
import type { SampleInput } from '@netbench/plugin-api';
import { LatencyHistogram, UnsupportedError } from '@netbench/plugin-api';
import { labTrial, type TwoHostLab, testTrialContext, twoHostLab } from '@netbench/plugin-api/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fpingPlugin } from './plugin.js';

// Real fping between two namespaces this file creates (twoHostLab, nbt-fping-<pid>…), deleted afterwards.
const plugin = fpingPlugin();
let lab: TwoHostLab;

beforeAll(async () => {
  lab = await twoHostLab({ tag: 'fping' });
});
afterAll(async () => {
  await lab?.close();
});

const metric = (samples: readonly SampleInput[], name: string) => samples.find((s) => s.metric === name) ?? expect.fail(`no ${name}`);

describe('fping run() between two namespaces', () => {
  it('forward: every reply in the histogram, percentiles, no loss, raw output kept', async () => {
    const t = testTrialContext();
    try {
      const { samples } = await plugin.run(await labTrial(plugin, lab, { count: 20, period: 10 }), t.ctx);
      expect(metric(samples, 'Packets Sent').value).toBe(20);
      expect(metric(samples, 'Packet Loss').value).toBe(0);
      const p50 = metric(samples, 'Latency p50').value;
      expect(p50).toBeGreaterThan(0);
      expect(p50).toBeLessThan(5);
      expect(LatencyHistogram.decode(metric(samples, 'Average Latency').histogram!).count).toBe(20);
      expect(metric(samples, 'Average Latency').labels).toMatchObject({ direction: 'forward', count: 20, period: 10, destination: lab.serverIp, size: 56 });
      const raw = readFileSync(t.saved.get('fping-forward.txt')!, 'utf8');
      expect(raw.match(/ bytes, /g)).toHaveLength(20);
      expect(raw).toMatch(new RegExp(`^${lab.serverIp.replace(/\./g, '\\.')} : (\\d+\\.\\d+ ?){20}$`, 'm'));
      expect(t.progress.at(-1)).toEqual({ fraction: 1, message: '20/20 replies' });
    } finally {
      t.dispose();
    }
  });

  it('reverse: the server fpings the client', async () => {
    const t = testTrialContext();
    try {
      const { samples } = await plugin.run(await labTrial(plugin, lab, { count: 5, period: 10, direction: 'both' }, { index: 1 }), t.ctx);
      expect(metric(samples, 'Packet Loss').labels).toMatchObject({ direction: 'reverse', destination: lab.clientIp });
    } finally {
      t.dispose();
    }
  });

  it('a silent address: 100% loss is a measurement, with a warning', async () => {
    const t = testTrialContext();
    try {
      const { samples } = await plugin.run(await labTrial(plugin, lab, { count: 3, period: 10, timeout: 50 }, { target: lab.silentIp }), t.ctx);
      expect(metric(samples, 'Packet Loss').value).toBe(100);
      expect(samples.some((s) => s.metric === 'Latency p50')).toBe(false);
      expect(t.warnings.join()).toMatch(/no replies \(3 sent/);
    } finally {
      t.dispose();
    }
  });

  it('refuses a period below 10 ms without root before running', async () => {
    const trial = await labTrial(plugin, lab, { count: 3, period: 2 });
    const t = testTrialContext();
    try {
      await expect(plugin.run({ ...trial, clientInfo: { ...trial.clientInfo, features: { root: false } } }, t.ctx)).rejects.toBeInstanceOf(UnsupportedError);
    } finally {
      t.dispose();
    }
  });
});
