import { describe, expect, it } from 'vitest';
import { netperfArgv } from './argv.js';
import { netperfBlockSchema } from './schema.js';
import { netperfTrials, type TrialParams } from './trials.js';

describe('netperf block schema', () => {
  it("defaults to PKB's netperf benchmark", () => {
    expect(netperfBlockSchema.parse({})).toEqual({
      tests: ['TCP_RR', 'TCP_CRR', 'TCP_STREAM', 'UDP_RR'],
      duration: 60,
      streams: 1,
      requestSize: 1,
      responseSize: 1,
      nodelay: false,
      histogram: false,
      cpuUtil: false,
    });
  });

  it('fills confidence and interval defaults', () => {
    const block = netperfBlockSchema.parse({ confidence: {}, interval: { waitMs: 10 } });
    expect(block.confidence).toEqual({ level: 99, width: 5, min: 3, max: 10 });
    expect(block.interval).toEqual({ burst: 1, waitMs: 10 });
  });

  it('rejects unknown fields, tests and bad values', () => {
    expect(netperfBlockSchema.safeParse({ test: ['TCP_RR'] }).success).toBe(false);
    expect(netperfBlockSchema.safeParse({ tests: ['SCTP_RR'] }).success).toBe(false);
    expect(netperfBlockSchema.safeParse({ tests: [] }).success).toBe(false);
    expect(netperfBlockSchema.safeParse({ duration: 0 }).success).toBe(false);
    expect(netperfBlockSchema.safeParse({ streams: [1, 0] }).success).toBe(false);
    expect(netperfBlockSchema.safeParse({ confidence: { level: 90 } }).success).toBe(false);
    expect(netperfBlockSchema.safeParse({ confidence: { min: 8, max: 5 } }).success).toBe(false);
    expect(netperfBlockSchema.safeParse({ confidence: { widht: 5 } }).success).toBe(false);
    expect(netperfBlockSchema.safeParse({ interval: { burst: 2 } }).success).toBe(false);
  });
});

describe('netperfTrials', () => {
  it('makes one trial per test and stream count, with only the parameters that apply', () => {
    const block = netperfBlockSchema.parse({ tests: ['TCP_RR', 'UDP_STREAM'], duration: 30, streams: [1, 4], sendSize: 1024, requestSize: 64 });
    const trials = netperfTrials(block);
    expect(trials.map((t) => [t.test, t.params.streams, t.estimatedSeconds])).toEqual([
      ['TCP_RR', 1, 30],
      ['TCP_RR', 4, 30],
      ['UDP_STREAM', 1, 30],
      ['UDP_STREAM', 4, 30],
    ]);
    expect(trials[0]?.params).toEqual({ duration: 30, streams: 1, requestSize: 64, responseSize: 1, nodelay: false });
    expect(trials[2]?.params).toEqual({ duration: 30, streams: 1, sendSize: 1024 });
  });

  it('counts confidence iterations in the estimate and records every option', () => {
    const block = netperfBlockSchema.parse({
      tests: ['TCP_RR'],
      duration: 2,
      confidence: { max: 6 },
      interval: { burst: 2, waitMs: 0.5 },
      histogram: true,
      cpuUtil: true,
      socketBuffer: 65536,
    });
    const [trial] = netperfTrials(block);
    expect(trial?.estimatedSeconds).toBe(12);
    expect(trial?.params).toMatchObject({
      confidenceLevel: 99,
      confidenceWidth: 5,
      confidenceMin: 3,
      confidenceMax: 6,
      intervalBurst: 2,
      intervalWaitMs: 0.5,
      histogram: true,
      cpuUtil: true,
      socketBuffer: 65536,
    });
    expect(trial?.params).toMatchObject({ duration: 2, streams: 1 });
  });
});

describe('netperfArgv', () => {
  const ports = { control: 20002, data: 20003 };

  it('runs an RR test as PKB does, each value its own argument', () => {
    const params: TrialParams = { duration: 60, streams: 1, requestSize: 1, responseSize: 1, nodelay: true };
    const argv = netperfArgv('TCP_RR', params, '10.0.0.2', ports);
    expect(argv.slice(0, 11)).toEqual(['netperf', '-p', '20002', '-t', 'TCP_RR', '-H', '10.0.0.2', '-l', '60', '-j', '--']);
    expect(argv.slice(11, 17)).toEqual(['-P', ',20003', '-r', '1,1', '-D', '-o']);
    expect(argv[17]?.split(',')).toEqual(expect.arrayContaining(['THROUGHPUT', 'P50_LATENCY', 'P90_LATENCY', 'P99_LATENCY', 'MEAN_LATENCY', 'TRANSPORT_MSS', 'COMMAND_LINE']));
  });

  it('adds confidence, CPU, pacing and bulk options', () => {
    const params: TrialParams = {
      duration: 1,
      streams: 1,
      sendSize: 131072,
      socketBuffer: 262144,
      confidenceLevel: 95,
      confidenceWidth: 2,
      confidenceMin: 3,
      confidenceMax: 9,
      cpuUtil: true,
      intervalBurst: 4,
      intervalWaitMs: 0.25,
    };
    const argv = netperfArgv('UDP_STREAM', params, 'fd00::2', ports);
    expect(argv.join(' ')).toBe(
      'netperf -p 20002 -t UDP_STREAM -H fd00::2 -l 1 -I 95,2 -i 9,3 -c -C -w 250us -b 4 -- -P ,20003 -m 131072 -s 262144 -S 262144 -R 1 -o ' +
        'THROUGHPUT,THROUGHPUT_UNITS,ELAPSED_TIME,PROTOCOL,DIRECTION,LOCAL_TRANSPORT_RETRANS,REMOTE_TRANSPORT_RETRANS,TRANSPORT_MSS,' +
        'CONFIDENCE_LEVEL,CONFIDENCE_INTERVAL,CONFIDENCE_ITERATION,THROUGHPUT_CONFID,LOCAL_CPU_UTIL,REMOTE_CPU_UTIL,' +
        'LOCAL_SEND_SIZE,REMOTE_RECV_SIZE,LOCAL_SEND_THROUGHPUT,REMOTE_RECV_THROUGHPUT,COMMAND_LINE',
    );
  });

  it("passes the target as -H's value and refuses what is not an address", () => {
    const params: TrialParams = { duration: 1, streams: 1 };
    expect(netperfArgv('TCP_STREAM', params, 'fd00::2', ports)[netperfArgv('TCP_STREAM', params, 'fd00::2', ports).indexOf('-H') + 1]).toBe('fd00::2');
    // netperf's `--` starts test options, so nothing can end its options: validation is what keeps these out.
    for (const hostile of ['x; rm -rf /', '-f/etc/passwd', 'host,4', '']) {
      expect(() => netperfArgv('TCP_STREAM', params, hostile, ports)).toThrow(/netperf target .* is not an IP address or host name/);
    }
  });
});
