import { type Host, processHost } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import { cpuSeriesOf, seriesInterval } from './cpu-series.js';
import { CPU_READ_ARGV, startCpuTicker } from './cpu-ticker.js';
import type { CpuTimes } from './proc-stat.js';
import { startTrialCounters } from './trial-counters.js';

const times = (cpu: number, t: Partial<CpuTimes>): CpuTimes => ({ cpu, user: 0, nice: 0, system: 0, idle: 0, iowait: 0, irq: 0, softirq: 0, steal: 0, ...t });
const local = (name: string): Host => processHost({ id: name, name, cloud: 'local', internalIp: '127.0.0.1' });

describe('the per-interval CPU series', () => {
  it('gives each CPU its shares per interval, in percent, with idle holding iowait, at times since the first read', () => {
    const series = cpuSeriesOf(
      [
        { at: 10_000, cpus: [times(0, { user: 100, idle: 100 }), times(1, { idle: 500 })] },
        // cpu0: 60 user + 10 nice, 20 system, 5 softirq, 5 steal of 100 jiffies; cpu1: 90 idle + 10 iowait.
        { at: 11_000, cpus: [times(0, { user: 160, nice: 10, system: 20, softirq: 5, steal: 5, idle: 100 }), times(1, { idle: 590, iowait: 10 })] },
        // cpu0 idle; cpu1 a quarter irq.
        { at: 12_004, cpus: [times(0, { user: 160, nice: 10, system: 20, softirq: 5, steal: 5, idle: 200 }), times(1, { idle: 665, iowait: 10, irq: 25 })] },
      ],
      1,
      { machine: 'boot-a' },
    );
    expect(series).toEqual({
      start: 10_000,
      interval: 1,
      t: [1, 2.004],
      machine: 'boot-a',
      cpus: [
        { cpu: 0, user: [70, 0], system: [20, 0], softirq: [5, 0], irq: [0, 0], steal: [5, 0], idle: [0, 100] },
        { cpu: 1, user: [0, 0], system: [0, 0], softirq: [0, 0], irq: [0, 25], steal: [0, 0], idle: [100, 75] },
      ],
    });
  });

  it('leaves out an interval with no time on a CPU, a CPU missing from a read, and needs two reads', () => {
    expect(cpuSeriesOf([{ at: 0, cpus: [times(0, { idle: 1 })] }], 1)).toBeUndefined();
    const series = cpuSeriesOf(
      [
        { at: 0, cpus: [times(0, { idle: 10 }), times(1, { idle: 10 })] },
        { at: 5, cpus: [times(0, { idle: 10 }), times(1, { idle: 10 })] },
        { at: 1000, cpus: [times(0, { idle: 20, user: 10 })] },
      ],
      1,
      { skipped: 2 },
    );
    expect(series?.cpus.map((c) => c.cpu)).toEqual([0]);
    expect(series?.t).toEqual([1]);
    expect(series?.cpus[0]?.user).toEqual([50]);
    expect(series?.skipped).toBe(2);
  });

  it("reads at the tool's interval, clamped to 1–60 s; 1 s without one", () => {
    expect(seriesInterval({ interval: 2 })).toBe(2);
    expect(seriesInterval({ interval: 0.2 })).toBe(1);
    expect(seriesInterval({ interval: 600 })).toBe(60);
    expect(seriesInterval({ interval: '5' })).toBe(1);
    expect(seriesInterval({})).toBe(1);
  });
});

describe('the per-interval reader', () => {
  it("reads /proc/stat's cpu lines with one process a tick and never has two reads in flight: a slow read skips ticks", async () => {
    let inFlight = 0;
    let most = 0;
    const argvs: string[][] = [];
    const base = local('slow');
    // Each read takes 350 ms against a 100 ms tick (a trial's is at least 1 s; this tests the ticker alone).
    const slow: Host = {
      ...base,
      async exec(argv, options) {
        argvs.push([...argv]);
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 350));
        try {
          return await base.exec(argv, options);
        } finally {
          inFlight -= 1;
        }
      },
    };
    const ticker = startCpuTicker(slow, 0.1, AbortSignal.timeout(10_000));
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    const result = await ticker.stop();
    expect(most).toBe(1);
    expect(result.skipped).toBeGreaterThan(0);
    expect(result.reads.length).toBeGreaterThanOrEqual(2);
    expect(result.reads[0]!.cpus.length).toBeGreaterThan(0);
    expect(argvs.every((argv) => argv.join(' ') === CPU_READ_ARGV.join(' '))).toBe(true);
    // Stopped: no read after it.
    const count = argvs.length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(argvs.length).toBe(count);
  });

  it('stops when the run is aborted, and counts a failed read instead of throwing', async () => {
    let calls = 0;
    const broken: Host = {
      ...local('x'),
      exec: () => {
        calls += 1;
        return Promise.reject(new Error('connection lost'));
      },
    };
    const controller = new AbortController();
    const ticker = startCpuTicker(broken, 0.05, controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 200));
    controller.abort();
    const after = calls;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(calls).toBe(after);
    const result = await ticker.stop();
    expect(result.failed).toBe(calls);
    expect(result.firstError).toBe('connection lost');
  });

  it('a trial of 10 s or more stores the series with each end; a failing per-interval read is a note', async () => {
    const a = local('a');
    let reads = 0;
    // Host b: the sh counter reads work, the per-interval sed reads fail.
    const b: Host = { ...local('b'), exec: (argv, options) => (argv[0] === 'sed' ? ((reads += 1), Promise.reject(new Error('no sed'))) : a.exec(argv, options)) };
    const controller = new AbortController();
    const counters = startTrialCounters(
      [
        { role: 'client', host: a, receives: false },
        { role: 'server', host: b, receives: true },
      ],
      {},
      10,
      controller.signal,
      undefined,
      1,
    );
    await new Promise((resolve) => setTimeout(resolve, 2_300));
    const explain = await counters.finish('iperf3', 'tcp', []);
    const client = explain.hosts.find((h) => h.role === 'client')!;
    expect(client.cpuSeries!.t.length).toBeGreaterThanOrEqual(1);
    expect(client.cpuSeries!.cpus.length).toBeGreaterThan(0);
    expect(explain.hosts.find((h) => h.role === 'server')!.cpuSeries).toBeUndefined();
    expect(explain.notes).toEqual([expect.stringMatching(new RegExp(`^server b: ${reads} of ${reads} per-interval CPU reads failed: no sed$`))]);
  });
});
