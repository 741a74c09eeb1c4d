import { readFileSync } from 'node:fs';
import type { SampleInput } from '@netbench/plugin-api';
import { isRetryable, TimeoutError } from '@netbench/plugin-api';
import { labTrial, type TwoHostLab, testTrialContext, twoHostLab } from '@netbench/plugin-api/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { iperf3Plugin } from './plugin.js';
import { PortInUseError, startServer } from './server.js';

// A port range of its own, so this file never meets another test's servers.
const FIRST_PORT = 5401;
const plugin = iperf3Plugin({ ports: { first: FIRST_PORT, last: 5420 } });
let lab: TwoHostLab;

beforeAll(async () => {
  lab = await twoHostLab({ tag: 'iperf3' });
});
afterAll(async () => {
  await lab?.close();
});

const iperfProcesses = () => [...lab.commands(lab.clientNs), ...lab.commands(lab.serverNs)].filter((c) => c.includes('iperf3'));
const one = (samples: readonly SampleInput[], metric: string, direction = 'forward') => {
  const found = samples.filter((s) => s.metric === metric && s.labels?.direction === direction);
  expect(found, metric).toHaveLength(1);
  return found[0]!;
};

describe('iperf3 run() between two namespaces', () => {
  it('TCP: throughput, intervals, both raw outputs, progress, no process left', async () => {
    const trial = await labTrial(plugin, lab, { duration: 1, interval: 0.5 });
    const t = testTrialContext();
    try {
      const { samples } = await plugin.run(trial, t.ctx);
      const throughput = one(samples, 'Throughput');
      expect(throughput.value).toBeGreaterThan(100);
      expect(throughput.labels).toMatchObject({ protocol: 'tcp', streams: 1, duration: 1, interval: 0.5, reverse: false });
      expect(samples.filter((s) => s.metric === 'Interval Throughput').length).toBeGreaterThanOrEqual(2);
      expect(one(samples, 'Retransmits').unit).toBe('count');
      const client = JSON.parse(readFileSync(t.saved.get('iperf3-client.json')!, 'utf8'));
      expect(client.start.connecting_to).toEqual({ host: lab.serverIp, port: expect.any(Number) });
      // The server's text report, read while it ran: its intervals came as live values before run returned.
      expect(readFileSync(t.saved.get('iperf3-server.txt')!, 'utf8')).toContain(`Accepted connection from ${lab.clientIp}`);
      const live = t.intervals.map((i) => i.sample).filter((s) => s.metric === 'Interval Throughput');
      expect(live.length).toBeGreaterThanOrEqual(2);
      expect(live[0]!.labels).toMatchObject({ direction: 'forward', interval_start: 0, interval_end: 0.5 });
      expect(live[0]!.value).toBeGreaterThan(0);
      expect(t.progress.at(-1)).toEqual({ fraction: 1, message: '1/1 s' });
      expect(t.progress.some((p) => p.fraction > 0 && p.fraction < 1)).toBe(true);
      expect(iperfProcesses()).toEqual([]);
    } finally {
      t.dispose();
    }
  });

  it('congestion: -C reaches both ends, and the samples say what each end used', async () => {
    const trial = await labTrial(plugin, lab, { duration: 1, congestion: 'reno', reverse: true });
    const t = testTrialContext();
    try {
      const { samples } = await plugin.run(trial, t.ctx);
      expect(one(samples, 'Throughput', 'reverse').labels).toMatchObject({ congestion: 'reno', client_cc: 'reno', server_cc: 'reno' });
    } finally {
      t.dispose();
    }
  });

  it('UDP at 50M: about 50 Mbit/s, jitter and loss reported', async () => {
    const trial = await labTrial(plugin, lab, { protocol: 'udp', bitrate: '50M', duration: 2 });
    const t = testTrialContext();
    try {
      const { samples } = await plugin.run(trial, t.ctx);
      const throughput = one(samples, 'Throughput').value;
      // The sender paces at 50 Mbit/s; what arrives is that less what was lost. On a loaded 2-vCPU machine the
      // receiver drops a few percent of packets, so the loss is checked against the counts, not against zero.
      const loss = one(samples, 'Packet Loss').value;
      expect(loss).toBeGreaterThanOrEqual(0);
      expect(loss).toBeLessThan(20);
      expect(Math.abs(loss - (one(samples, 'Lost Packets').value / one(samples, 'Packets Sent').value) * 100)).toBeLessThan(1);
      expect(throughput).toBeLessThan(55);
      expect(throughput).toBeGreaterThan(45 * (1 - loss / 100));
      expect(one(samples, 'Jitter').value).toBeGreaterThanOrEqual(0);
      expect(one(samples, 'Packets Sent').value).toBeGreaterThan(8000);
      expect(one(samples, 'Throughput').labels).toMatchObject({ protocol: 'udp', bitrate: '50M', target_bitrate: 50_000_000 });
      expect(iperfProcesses()).toEqual([]);
    } finally {
      t.dispose();
    }
  });

  it('bidir: both directions measured at once', async () => {
    const trial = await labTrial(plugin, lab, { bidir: true, duration: 1 });
    const t = testTrialContext();
    try {
      const { samples } = await plugin.run(trial, t.ctx);
      expect(one(samples, 'Throughput', 'forward').value).toBeGreaterThan(100);
      expect(one(samples, 'Throughput', 'reverse').value).toBeGreaterThan(100);
    } finally {
      t.dispose();
    }
  });

  it('concurrent trials get servers on different ports', async () => {
    const [a, b] = await Promise.all([labTrial(plugin, lab, { duration: 1, streams: 2 }), labTrial(plugin, lab, { duration: 1, reverse: true })]);
    const ta = testTrialContext();
    const tb = testTrialContext();
    try {
      const [ra, rb] = await Promise.all([plugin.run(a!, ta.ctx), plugin.run(b!, tb.ctx)]);
      expect(one(ra.samples, 'Throughput').value).toBeGreaterThan(100);
      expect(one(rb.samples, 'Throughput', 'reverse').value).toBeGreaterThan(100);
      const port = (t: typeof ta) => JSON.parse(readFileSync(t.saved.get('iperf3-client.json')!, 'utf8')).start.connecting_to.port;
      expect(port(ta)).not.toBe(port(tb));
      expect(iperfProcesses()).toEqual([]);
    } finally {
      ta.dispose();
      tb.dispose();
    }
  });

  it('skips a port another program listens on; startServer on it is PortInUseError', async () => {
    const squatter = lab.server.spawn(['iperf3', '-s', '-p', String(FIRST_PORT + 10)]);
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      await expect(startServer(lab.server, FIRST_PORT + 10, new AbortController().signal)).rejects.toBeInstanceOf(PortInUseError);

      const solo = iperf3Plugin({ ports: { first: FIRST_PORT + 10, last: FIRST_PORT + 11 } });
      const trial = await labTrial(plugin, lab, { duration: 1 });
      const t = testTrialContext();
      try {
        await solo.run(trial, t.ctx);
        expect(JSON.parse(readFileSync(t.saved.get('iperf3-client.json')!, 'utf8')).start.connecting_to.port).toBe(FIRST_PORT + 11);
      } finally {
        t.dispose();
      }
    } finally {
      squatter.kill('SIGKILL');
      await squatter.exited;
    }
    expect(iperfProcesses()).toEqual([]);
  });

  it('connection refused is retryable, and the unused server is stopped at once', async () => {
    // The client's own loopback: nothing listens there.
    const trial = await labTrial(plugin, lab, { duration: 1 }, { target: '127.0.0.1' });
    const t = testTrialContext();
    try {
      const started = Date.now();
      const error = await plugin.run(trial, t.ctx).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isRetryable(error)).toBe(true);
      expect(String(error)).toMatch(/unable to connect to server: Connection refused/);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(readFileSync(t.saved.get('iperf3-client.json')!, 'utf8')).toContain('Connection refused');
      expect(iperfProcesses()).toEqual([]);
    } finally {
      t.dispose();
    }
  });

  it('abort kills client and server promptly', async () => {
    const trial = await labTrial(plugin, lab, { duration: 30 });
    const t = testTrialContext();
    try {
      const running = plugin.run(trial, t.ctx);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(iperfProcesses().length).toBe(2);
      const aborted = Date.now();
      t.controller.abort(new Error('user pressed Ctrl-C'));
      await expect(running).rejects.toThrow('user pressed Ctrl-C');
      expect(Date.now() - aborted).toBeLessThan(5_000);
      expect(iperfProcesses()).toEqual([]);
    } finally {
      t.dispose();
    }
  });

  it('times out after timeoutMs, leaving nothing running', async () => {
    const trial = await labTrial(plugin, lab, { duration: 30 });
    // Long enough for the server to start and the client to connect on a loaded machine (unit files run two at once).
    const t = testTrialContext(4_000);
    try {
      const started = Date.now();
      const error = await plugin.run(trial, t.ctx).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(TimeoutError);
      expect(Date.now() - started).toBeLessThan(12_000);
      expect(iperfProcesses()).toEqual([]);
      // What iperf3 printed before it was stopped is kept for diagnosis (its closing
      // "interrupt" error only when it gets to print it before the deadline's kill).
      expect(readFileSync(t.saved.get('iperf3-client.json')!, 'utf8')).toContain('"connecting_to"');
    } finally {
      t.dispose();
    }
  });
});
