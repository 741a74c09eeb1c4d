import { readFileSync } from 'node:fs';
import type { SampleInput } from '@netbench/plugin-api';
import { ParseError } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import { iperfSamples } from '../iperf-samples.js';
import { parseIperf } from '../parse-raw.js';
import { parseIperfOutput } from './parse-iperf.js';

// Real iperf 2.1.8 outputs captured by ../../scripts/capture-fixtures.sh between namespaces (COMMANDS.txt lists each command).
const fixture = (name: string) => readFileSync(new URL(`../__fixtures__/${name}`, import.meta.url), 'utf8');
const parse = (name: string) => parseIperfOutput(fixture(name), name);
const value = (samples: readonly SampleInput[], metric: string, direction = 'forward') => {
  const found = samples.filter((s) => s.metric === metric && s.labels?.direction === direction);
  expect(found, `${metric} ${direction}`).toHaveLength(1);
  return found[0]!.value;
};
const thrown = (raw: string, source = 'iperf.txt'): Error => {
  try {
    parseIperfOutput(raw, source);
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
};

describe('parseIperfOutput: TCP client reports', () => {
  it('-e, 1 stream, -i 1: the final report (not an interval), writes, retries, RTT, start time, interval series', () => {
    const result = parse('tcp-e.txt');
    expect(result).toMatchObject({ side: 'client', protocol: 'tcp', enhanced: true, bufferBytes: 131_072, windowBytes: 16_384, startedAt: Date.parse('2026-11-22T11:45:32Z') });
    expect(result.flows).toEqual([
      {
        direction: 'forward',
        streams: 1,
        sent: { seconds: 2.0141, bytes: Math.round(3.04 * 1024 ** 3), bitsPerSecond: 13.0e9, writes: 24_905, writeErrors: 0, retries: 45, rttUs: 259 },
      },
    ]);
    expect(result.intervals.map((i) => [i.start, i.end])).toEqual([
      [0, 1],
      [1, 2],
    ]);
    const samples = iperfSamples(result);
    expect(value(samples, 'Throughput')).toBe(13_000);
    expect(samples.find((s) => s.metric === 'Throughput')!.labels).toMatchObject({ measured_at: 'sender', protocol: 'tcp', streams: 1, report_from: 'client' });
    expect(samples.find((s) => s.metric === 'Throughput')!.timestamp).toBe(Date.parse('2026-11-22T11:45:32Z') + 2014);
  });

  it("-P 3: the [SUM] totals (PKB's Throughput), RTT averaged over streams, [SUM] intervals only", () => {
    const result = parse('tcp-p3.txt');
    expect(result.flows[0]).toMatchObject({ streams: 3, sent: { bitsPerSecond: 18.1e9, writes: 34_655, retries: 12, rttUs: (2293 + 1759 + 1543) / 3 } });
    expect(result.intervals).toHaveLength(2);
    expect(result.intervals.map((i) => i.bitsPerSecond)).toEqual([18.4e9, 18.0e9]);
  });

  it('-f m: Mbits/sec as PKB runs it', () => {
    expect(value(iperfSamples(parse('tcp-e-fm.txt')), 'Throughput')).toBe(11_934);
    expect(value(iperfSamples(parse('tcp-p2-fm.txt')), 'Throughput')).toBe(15_063);
  });

  it('plain reports (no -e): bandwidth only', () => {
    const result = parse('tcp-plain.txt');
    expect(result.enhanced).toBe(false);
    expect(result.flows[0]!.sent).toEqual({ seconds: 1.0204, bytes: 791 * 1024 ** 2, bitsPerSecond: 6.5e9 });
  });

  it("PKB's --enhancedreports on 2.1.8: the warning is kept and the plain [SUM] read", () => {
    const result = parse('tcp-long-enhanced.txt');
    expect(result.warnings).toEqual(["iperf: unrecognized option `--enhancedreports'"]);
    expect(result.flows[0]).toMatchObject({ streams: 2, sent: { bitsPerSecond: 5230e6 } });
  });

  it('-R: the client receives, so the flow is reverse and measured at the receiver', () => {
    const samples = iperfSamples(parse('tcp-reverse.txt'));
    expect(value(samples, 'Throughput', 'reverse')).toBe(8780);
    expect(samples.some((s) => s.labels?.direction === 'forward')).toBe(false);
  });

  it('-r and -d: a flow each way in one client output', () => {
    for (const name of ['tcp-tradeoff.txt', 'tcp-dual.txt']) {
      const result = parse(name);
      expect(result.side, name).toBe('client');
      expect(result.flows.map((f) => [f.direction, f.sent ? 'sent' : 'received'])).toEqual([
        ['forward', 'sent'],
        ['reverse', 'received'],
      ]);
    }
  });
});

describe('parseIperfOutput: UDP and server reports', () => {
  it('UDP client: sender totals and the server report (jitter, lost/total), receiver throughput first', () => {
    const samples = iperfSamples(parse('udp-e.txt'));
    expect(samples.find((s) => s.metric === 'UDP Throughput')).toMatchObject({ value: 52.2, labels: { measured_at: 'receiver' } });
    expect(value(samples, 'Sent Throughput')).toBe(52.4);
    expect(value(samples, 'Jitter')).toBe(0.003);
    expect(value(samples, 'Lost Datagrams')).toBe(40);
    expect(value(samples, 'Total Datagrams')).toBe(8920);
    expect(value(samples, 'Packet Loss')).toBeCloseTo((40 / 8920) * 100, 10);
    expect(value(samples, 'Packets Per Second')).toBe(4460);
  });

  it('UDP -P 2: the server reports of both streams added up, out-of-order counted', () => {
    const flow = parse('udp-p2.txt').flows[0]!;
    expect(flow).toMatchObject({ streams: 2, outOfOrder: 1, sent: { writes: 7138, pps: 3569 }, received: { lost: 1, total: 7140, bitsPerSecond: 42e6 } });
  });

  it('UDP into a 40 Mbit/s bottleneck: the loss', () => {
    const samples = iperfSamples(parse('udp-loss.txt'));
    expect(value(samples, 'UDP Throughput')).toBe(37.6);
    expect(value(samples, 'Packet Loss')).toBeCloseTo(54.81, 2);
  });

  it('plain UDP (no -e): the server report still has jitter and loss', () => {
    const result = parse('udp-plain.txt');
    expect(result.enhanced).toBe(false);
    expect(result.flows[0]!.received).toMatchObject({ jitterMs: 0.002, lost: 0, total: 895 });
  });

  it("server outputs: the receiver's view of the forward flow; its reverse-test sender view", () => {
    expect(parse('server-tcp-p3.txt')).toMatchObject({ side: 'server', flows: [{ direction: 'forward', streams: 3, received: { bitsPerSecond: 18.1e9 } }] });
    expect(parse('server-tcp-reverse.txt').flows).toMatchObject([{ direction: 'reverse', sent: { retries: 135 } }]);
    // 2.1.8 prints a UDP server's [SUM] in the sender's columns: read as lost/total, and the streams' own counts win.
    expect(parse('server-udp-p2.txt').flows[0]).toMatchObject({ streams: 2, received: { lost: 1, total: 7140 }, outOfOrder: 1 });
    expect(iperfSamples(parse('server-udp-loss.txt'))[0]!.labels).toMatchObject({ report_from: 'server', measured_at: 'receiver' });
  });
});

describe('parseIperfOutput: failures and broken output', () => {
  it("names iperf's own failure and its line", () => {
    const error = thrown(fixture('error-refused.txt'), 'error-refused.txt');
    expect(error).toBeInstanceOf(ParseError);
    expect(error.message).toBe('error-refused.txt:1: iperf failed: tcp connect failed: Connection refused');
  });

  it('output cut before the final report names the last line', () => {
    const lines = fixture('tcp-e.txt').split('\n');
    // Stopped after the second -i interval: the 0-1 s interval is not mistaken for the total.
    const cut = lines.slice(0, 10).join('\n');
    expect(thrown(cut).message).toBe('iperf.txt:10: no final report: iperf did not finish (killed, interrupted or truncated?)');
  });

  it('text that is not iperf 2 output says so', () => {
    expect(thrown('Connecting to host 10.0.0.2, port 5201\n').message).toMatch(/^iperf\.txt: not iperf 2 output/);
    expect(thrown('').message).toMatch(/not iperf 2 output/);
  });

  it("-P 2 cut after one stream's total is refused, not read as the test's total", () => {
    expect(parse('tcp-p2-plain.txt').flows[0]).toMatchObject({ streams: 2, sent: { bitsPerSecond: 7.32e9 } });
    const error = thrown(fixture('tcp-p2-plain-cut.txt'), 'tcp-p2-plain-cut.txt');
    expect(error).toBeInstanceOf(ParseError);
    expect(error.message).toBe('tcp-p2-plain-cut.txt:8: no final report for stream [2], which connected: the output stops before the last totals (truncated?)');
  });

  it('never throws anything but ParseError on truncated or corrupted outputs', () => {
    for (const name of ['tcp-p3.txt', 'udp-p2.txt', 'server-udp-p2.txt', 'tcp-dual.txt']) {
      const text = fixture(name);
      for (const variant of [text.slice(0, text.length / 2), text.replace(/\d/g, '9'), text.replace(/sec/g, 'sek'), text.split('').reverse().join('')]) {
        try {
          parseIperfOutput(variant, name);
        } catch (error) {
          expect(error, name).toBeInstanceOf(ParseError);
        }
      }
    }
  });

  it('the plugin parse() labels the test with the protocol', () => {
    expect(parseIperf(fixture('udp-e.txt'))[0]!.labels).toMatchObject({ test: 'udp', protocol: 'udp' });
  });
});
