import { type Host, processHost, type Sample } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import { cpuList, startTrialCounters, trialThroughput } from './trial-counters.js';

const sample = (metric: string, value: number, unit: string, labels: Record<string, string | number> = {}) => ({ metric, value, unit, labels }) as unknown as Sample;
const local = (name: string): Host => processHost({ id: name, name, cloud: 'local', internalIp: '127.0.0.1' });

describe("a trial's counters", () => {
  it('reads each end once at the start and once at the end (one process each), and finds nothing wrong with an idle trial', async () => {
    const execs: string[][] = [];
    const counting = (host: Host): Host => ({
      ...host,
      exec: (argv, options) => {
        execs.push([...argv]);
        return host.exec(argv, options);
      },
    });
    const counters = startTrialCounters(
      [
        { role: 'client', host: counting(local('a')), receives: false },
        { role: 'server', host: counting(local('b')), receives: true },
      ],
      {},
      0.5,
      AbortSignal.timeout(10_000),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const explain = await counters.finish('ping', 'icmp', []);
    // 2 hosts × (start + end): short trials get no mid-trial reads.
    expect(execs).toHaveLength(4);
    for (const argv of execs) expect(argv[0]).toBe('sh');
    expect(explain.hosts.map((h) => h.role)).toEqual(['client', 'server']);
    expect(explain.hosts[0]!.seconds).toBeGreaterThan(0);
    expect(explain.hosts[0]!.cpus.length).toBeGreaterThan(0);
    expect(explain.hosts[0]!.cpuWindow).toBe('whole');
    expect(explain.notes).toBeUndefined();
  });

  it('a host whose counters cannot be read is a note, never a failed trial', async () => {
    const broken: Host = { ...local('x'), exec: () => Promise.reject(new Error('connection lost')) };
    const counters = startTrialCounters(
      [
        { role: 'client', host: local('a'), receives: false },
        { role: 'server', host: broken, receives: true },
      ],
      {},
      1,
      AbortSignal.timeout(10_000),
    );
    const explain = await counters.finish('iperf3', 'tcp', []);
    expect(explain.hosts.map((h) => h.host)).toEqual(['a']);
    expect(explain.notes).toEqual(['server x: start counter read failed: connection lost', 'server x: end counter read failed: connection lost']);
  });
});

describe('what the rules compare against', () => {
  it("takes a trial's whole throughput: the aggregate of flows, never a stream, an interval or the sender's side", () => {
    expect(trialThroughput([sample('Throughput', 940, 'Mbits/sec'), sample('Throughput', 470, 'Mbits/sec', { stream: 1 }), sample('Sent Throughput', 990, 'Mbits/sec')])).toBe(
      940e6,
    );
    expect(
      trialThroughput([sample('TCP_STREAM_Throughput', 7000, 'Mbits/sec', { flow: 'a->b' }), sample('TCP_STREAM_Throughput', 14000, 'Mbits/sec', { flow: 'aggregate' })]),
    ).toBe(14e9);
    expect(trialThroughput([sample('Interval Throughput', 900, 'Mbits/sec', { interval_start: 0 })])).toBeUndefined();
    expect(trialThroughput([sample('Average Latency', 0.05, 'ms')])).toBeUndefined();
  });

  it('reads the pinning parameters as CPU lists', () => {
    expect(cpuList(0)).toEqual([0]);
    expect(cpuList('1')).toEqual([1]);
    expect(cpuList('0-2,5')).toEqual([0, 1, 2, 5]);
    expect(cpuList(undefined)).toBeUndefined();
    expect(cpuList('0;rm -rf')).toBeUndefined();
  });
});

describe('the processes of a host', () => {
  it("reads /proc/PID/stat lines (a comm with spaces and parentheses too), leaving the reader's own commands out", async () => {
    const { parseProcesses } = await import('./host-counters.js');
    const stat = (pid: number, ppid: number, comm: string, utime: number, stime: number) =>
      `${pid} (${comm}) S ${ppid} 1 1 0 -1 4194560 0 0 0 0 ${utime} ${stime} 0 0 20 0 1 0 ${1000 + pid} 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0`;
    const text = [stat(100, 1, 'iperf3', 300, 200), stat(101, 1, 'my tool (x)', 5, 5), stat(200, 1, 'sh', 1, 1), stat(201, 200, 'find', 1, 1), stat(202, 200, 'xargs', 0, 0)].join(
      '\n',
    );
    const found = parseProcesses(text);
    expect([...found.values()].map((p) => [p.pid, p.comm, p.ticks])).toEqual([
      [100, 'iperf3', 500],
      [101, 'my tool (x)', 10],
    ]);
  });
});
