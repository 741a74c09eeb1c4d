import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SampleInput } from '@netbench/plugin-api';
import { LatencyHistogram, processHost, ToolMissingError, UnsupportedError } from '@netbench/plugin-api';
import { labTrial, type TwoHostLab, testTrialContext, twoHostLab } from '@netbench/plugin-api/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pingPlugin } from './plugin.js';

const plugin = pingPlugin();
let lab: TwoHostLab;
let nobodyLab: TwoHostLab;

beforeAll(async () => {
  lab = await twoHostLab({ tag: 'ping' });
  // Same topology, but every command runs as `nobody`.
  nobodyLab = await twoHostLab({ tag: 'ping-nobody', hostPrefix: ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'] });
});
afterAll(async () => {
  await lab?.close();
  await nobodyLab?.close();
});

const metric = (samples: readonly SampleInput[], name: string) => {
  const sample = samples.find((s) => s.metric === name);
  if (!sample) throw new Error(`no ${name} sample`);
  return sample;
};

describe('ping run() between two namespaces', () => {
  it('forward: client pings server; histogram, percentiles, no loss, raw saved, progress streamed', async () => {
    const trial = await labTrial(plugin, lab, { count: 20, interval: 0.01, direction: 'both' });
    const t = testTrialContext();
    try {
      const { samples } = await plugin.run(trial, t.ctx);
      const p50 = metric(samples, 'Latency p50').value;
      expect(p50).toBeGreaterThan(0);
      expect(p50).toBeLessThan(5);
      expect(metric(samples, 'Packet Loss').value).toBe(0);
      expect(metric(samples, 'Packets Sent').value).toBe(20);
      const average = metric(samples, 'Average Latency');
      expect(LatencyHistogram.decode(average.histogram!).count).toBe(20);
      expect(average.labels).toMatchObject({ direction: 'forward', count: 20, interval: 0.01, size: 56, destination: lab.serverIp, per_packet_rtts: true });
      const raw = readFileSync(t.saved.get('ping-forward.txt')!, 'utf8');
      expect(raw).toContain(`PING ${lab.serverIp}`);
      expect(raw.match(/icmp_seq=/g)).toHaveLength(20);
      expect(t.progress.at(-1)).toEqual({ fraction: 1, message: '20/20 replies' });
      expect(t.progress.length).toBeGreaterThanOrEqual(2);
    } finally {
      t.dispose();
    }
  });

  it('reverse: the server pings the client address', async () => {
    const trial = await labTrial(plugin, lab, { count: 5, interval: 0.01, direction: 'both' }, { index: 1 });
    const t = testTrialContext();
    try {
      const { samples } = await plugin.run(trial, t.ctx);
      expect(metric(samples, 'Packet Loss').value).toBe(0);
      expect(metric(samples, 'Min Latency').labels).toMatchObject({ direction: 'reverse', destination: lab.clientIp });
      expect(readFileSync(t.saved.get('ping-reverse.txt')!, 'utf8')).toContain(`PING ${lab.clientIp}`);
    } finally {
      t.dispose();
    }
  });

  it('flood as root: summary and ipg/ewma, no histogram', async () => {
    const trial = await labTrial(plugin, lab, { count: 200, flood: true, direction: 'forward' });
    const t = testTrialContext();
    try {
      const { samples } = await plugin.run(trial, t.ctx);
      expect(metric(samples, 'Packets Received').value).toBe(200);
      expect(metric(samples, 'Interpacket Gap').value).toBeGreaterThan(0);
      expect(samples.some((s) => s.histogram)).toBe(false);
      expect(metric(samples, 'Average Latency').labels).toMatchObject({ flood: true, per_packet_rtts: false });
    } finally {
      t.dispose();
    }
  });

  it('100% loss is a measurement, with a warning', async () => {
    const trial = await labTrial(plugin, lab, { count: 3, interval: 0.2, timeout: 1, direction: 'forward' }, { target: lab.silentIp });
    const t = testTrialContext();
    try {
      const { samples } = await plugin.run(trial, t.ctx);
      expect(metric(samples, 'Packet Loss').value).toBe(100);
      expect(samples.find((s) => s.metric === 'Latency p50')).toBeUndefined();
      expect(t.warnings.join('\n')).toMatch(/no replies \(3 sent/);
    } finally {
      t.dispose();
    }
  });

  it('abort stops ping promptly, keeps the partial raw output, leaves no process', async () => {
    const trial = await labTrial(plugin, lab, { count: 10_000, interval: 0.01, direction: 'forward' });
    const t = testTrialContext();
    try {
      const started = Date.now();
      const running = plugin.run(trial, t.ctx);
      setTimeout(() => t.controller.abort(new Error('user pressed Ctrl-C')), 500);
      await expect(running).rejects.toThrow('user pressed Ctrl-C');
      expect(Date.now() - started).toBeLessThan(8_000);
      expect(readFileSync(t.saved.get('ping-forward.txt')!, 'utf8')).toMatch(/icmp_seq=\d+/);
      expect(lab.commands(lab.clientNs).filter((c) => c.includes('ping'))).toEqual([]);
    } finally {
      t.dispose();
    }
  });

  it('times out after timeoutMs', async () => {
    const trial = await labTrial(plugin, lab, { count: 10_000, interval: 0.01, direction: 'forward' });
    const t = testTrialContext(400);
    try {
      await expect(plugin.run(trial, t.ctx)).rejects.toThrow(/took longer than 400 ms/);
    } finally {
      t.dispose();
    }
  });
});

describe('ping run() without root', () => {
  it("runs at ping's user minimum interval and above", async () => {
    const trial = await labTrial(plugin, nobodyLab, { count: 5, interval: 0.01, direction: 'forward' });
    expect(trial.clientInfo.features.root).toBe(false);
    const t = testTrialContext();
    try {
      const { samples } = await plugin.run(trial, t.ctx);
      expect(metric(samples, 'Packets Received').value).toBe(5);
    } finally {
      t.dispose();
    }
  });

  it('refuses a faster interval or flood before running, saying root is needed', async () => {
    const t = testTrialContext();
    try {
      const fast = await labTrial(plugin, nobodyLab, { count: 5, interval: 0.001, direction: 'forward' });
      await expect(plugin.run(fast, t.ctx)).rejects.toThrow(UnsupportedError);
      await expect(plugin.run(fast, t.ctx)).rejects.toThrow(/interval 0\.001 s needs root on host client/);
      const flood = await labTrial(plugin, nobodyLab, { count: 5, flood: true, direction: 'reverse' });
      await expect(plugin.run(flood, t.ctx)).rejects.toThrow(/flood ping \(-f\) needs root on host server/);
      expect(t.saved.size).toBe(0);
    } finally {
      t.dispose();
    }
  });

  it("turns ping's own refusal into UnsupportedError when check could not know", async () => {
    const trial = await labTrial(plugin, nobodyLab, { count: 5, interval: 0.001, direction: 'forward' });
    const unknown = { ...trial, clientInfo: { version: trial.clientInfo.version, features: {} } };
    const t = testTrialContext();
    try {
      await expect(plugin.run(unknown, t.ctx)).rejects.toThrow(/minimal interval allowed for user is 2ms.*needs root/);
      expect(readFileSync(t.saved.get('ping-forward.stderr.txt')!, 'utf8')).toContain('minimal interval');
    } finally {
      t.dispose();
    }
  });
});

describe('ping run() failures', () => {
  it('a host without ping: ToolMissingError, stderr kept', async () => {
    const trial = await labTrial(plugin, lab, { count: 3, direction: 'forward' });
    const withoutPing = createHostWithoutPing(lab);
    const bare = { ...trial, client: withoutPing.host };
    const t = testTrialContext();
    try {
      await expect(plugin.run(bare, t.ctx)).rejects.toBeInstanceOf(ToolMissingError);
      expect(readFileSync(t.saved.get('ping-forward.stderr.txt')!, 'utf8')).toMatch(/ping.: No such file or directory/);
    } finally {
      t.dispose();
      withoutPing.dispose();
    }
  });
});

/** A host whose PATH has `env` but no ping. */
function createHostWithoutPing(theLab: TwoHostLab) {
  const bin = mkdtempSync(join(tmpdir(), 'nbt-ping-bin-'));
  symlinkSync('/usr/bin/env', join(bin, 'env'));
  const host = processHost({
    id: 'bare',
    name: 'bare',
    cloud: 'local',
    internalIp: theLab.clientIp,
    prefix: ['ip', 'netns', 'exec', theLab.clientNs, '/usr/bin/env', `PATH=${bin}`],
  });
  return { host, dispose: () => rmSync(bin, { recursive: true, force: true }) };
}
