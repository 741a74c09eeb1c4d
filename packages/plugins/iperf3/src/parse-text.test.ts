import { readFileSync } from 'node:fs';
import type { SampleInput } from '@netbench/plugin-api';
import { ParseError } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import { iperf3Samples } from './iperf3-samples.js';
import { parseIperf3Output } from './parse-output.js';
import { parseIperf3Text } from './parse-text.js';
import { iperf3Plugin } from './plugin.js';
import { sniffIperf3 } from './sniff.js';

// text-*.txt, server-text-*.txt, error-text-*.txt: real iperf 3.12 text reports, captured by ../scripts/capture-text-fixtures.sh (commands in capture-text-fixtures.commands.txt).
const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
const parse = (name: string) => parseIperf3Text(fixture(name), name);
const value = (samples: readonly SampleInput[], metric: string, direction?: string) => {
  const found = samples.filter((s) => s.metric === metric && (direction === undefined || s.labels?.direction === direction));
  expect(found, `${metric} ${direction ?? ''}`).toHaveLength(1);
  return found[0]!.value;
};
const thrown = (raw: string, source = 'report.txt'): Error => {
  try {
    parseIperf3Text(raw, source);
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
};

describe('parseIperf3Text on real iperf 3.12 text reports', () => {
  it('TCP, 1 stream: receiver throughput from the receiver line, retransmits from the sender line, the interval series', () => {
    const result = parse('text-tcp-1.txt');
    expect(result).toMatchObject({ protocol: 'tcp', streams: 1, duration: 2, omit: 0, reverse: false, bidir: false });
    expect(result.blockSize).toBeUndefined();
    const samples = iperf3Samples(result);
    expect(value(samples, 'Throughput', 'forward')).toBe(11_200);
    expect(value(samples, 'Sent Throughput', 'forward')).toBe(11_300);
    expect(value(samples, 'Retransmits', 'forward')).toBe(271);
    expect(value(samples, 'Bytes Sent', 'forward')).toBe(Math.round(2.62 * 1024 ** 3));
    expect(samples.filter((s) => s.metric === 'Interval Throughput').map((s) => s.labels?.interval_end)).toEqual([1, 2]);
    expect(samples[0]!.labels).not.toHaveProperty('block_size');
  });

  it('-P 4: the [SUM] sender/receiver lines, and the [SUM] intervals only', () => {
    const result = parse('text-tcp-4.txt');
    expect(result.streams).toBe(4);
    const samples = iperf3Samples(result);
    expect(value(samples, 'Throughput', 'forward')).toBe(12_900);
    expect(value(samples, 'Bytes Received', 'forward')).toBe(Math.round(3.01 * 1024 ** 3));
    expect(samples.filter((s) => s.metric === 'Interval Throughput')).toHaveLength(2);
  });

  it('-R: the flow is the reverse direction', () => {
    const result = parse('text-tcp-reverse.txt');
    expect(result.reverse).toBe(true);
    expect(result.flows.map((f) => f.direction)).toEqual(['reverse']);
    expect(value(iperf3Samples(result), 'Retransmits', 'reverse')).toBe(92);
  });

  it('--bidir: a flow per direction from the [TX-C]/[RX-C] roles', () => {
    const result = parse('text-udp-bidir.txt');
    expect(result).toMatchObject({ protocol: 'udp', bidir: true, streams: 2 });
    const samples = iperf3Samples(result);
    expect(value(samples, 'Throughput', 'forward')).toBe(20);
    expect(value(samples, 'Jitter', 'forward')).toBe(0.01);
    expect(value(samples, 'Jitter', 'reverse')).toBe(0.008);
    expect(value(samples, 'Packets Sent', 'reverse')).toBe(1726);
  });

  it('UDP with loss: jitter, lost/total and percent from the receiver line', () => {
    const samples = iperf3Samples(parse('text-udp-loss.txt'));
    expect(value(samples, 'Throughput')).toBe(38.6);
    expect(value(samples, 'Sent Throughput')).toBe(80);
    expect(value(samples, 'Jitter')).toBe(0.378);
    expect(value(samples, 'Lost Packets')).toBe(7104);
    expect(value(samples, 'Packet Loss')).toBe(51);
    expect(value(samples, 'Packets Sent')).toBe(13_807);
  });

  it('-O: the omitted warm-up interval is marked and sets omit', () => {
    const result = parse('text-tcp-omit.txt');
    expect(result.omit).toBe(1);
    expect(result.intervals.map((i) => i.omitted)).toEqual([true, false, false]);
  });

  it('-V: block size, target bitrate, MSS, congestion control, CPU and the start time', () => {
    const tcp = parse('text-tcp-verbose.txt');
    expect(tcp).toMatchObject({ version: '3.12', blockSize: 131_072, tcpMssDefault: 1448, congestion: 'bbr', startedAt: Date.parse('Sun, 22 Nov 2026 11:47:29 GMT') });
    expect(tcp.cpu).toEqual({ client: { total: 96.8, user: 0.8, system: 96 }, server: { total: 71.9, user: 2.5, system: 69.4 } });
    const udp = parse('text-udp-verbose.txt');
    expect(udp).toMatchObject({ protocol: 'udp', blockSize: 1448, targetBitrate: 10_000_000 });
  });

  it('--timestamps: lines are read after their time prefix, which dates the samples', () => {
    const result = parse('text-tcp-timestamps.txt');
    expect(result.startedAt).toBe(new Date('Sun Nov 22 11:47:27 2026').getTime());
    expect(value(iperf3Samples(result), 'Retransmits')).toBe(45);
  });
});

describe('iperf3 parse: JSON or text, and errors', () => {
  it('the plugin parse() reads both forms and labels the test', () => {
    const plugin = iperf3Plugin();
    const fromText = plugin.parse(fixture('text-udp.txt'), { source: 'text-udp.txt' });
    const fromJson = plugin.parse(fixture('udp.json'), { source: 'udp.json' });
    expect(fromText.find((s) => s.metric === 'Jitter')!.labels).toMatchObject({ test: 'udp', protocol: 'udp' });
    expect(fromJson.map((s) => s.metric).filter((m) => m !== 'Out Of Order' && !m.includes('CPU'))).toEqual(expect.arrayContaining(fromText.map((s) => s.metric)));
    expect(parseIperf3Output(fixture('tcp-1.json')).blockSize).toBe(131_072);
  });

  it("names iperf3's own error and its line", () => {
    const error = thrown(fixture('error-text-refused.txt'), 'error-text-refused.txt');
    expect(error).toBeInstanceOf(ParseError);
    expect(error.message).toBe('error-text-refused.txt:1: iperf3 failed: unable to connect to server: Connection refused');
  });

  it("refuses a server's report, as for -J", () => {
    expect(thrown(fixture('server-text-tcp-4.txt')).message).toMatch(/report\.txt:2: this is an iperf3 server's report/);
  });

  it('a report cut before its summary names the last line', () => {
    const lines = fixture('text-tcp-4.txt').split('\n');
    const cut = lines
      .slice(
        0,
        lines.findIndex((l) => l.includes('sender')),
      )
      .join('\n');
    const error = thrown(cut);
    expect(error).toBeInstanceOf(ParseError);
    expect(error.message).toMatch(/report\.txt:\d+: no sender\/receiver summary: iperf3 did not finish/);
    const noReceiver = lines.filter((l) => !l.includes('receiver')).join('\n');
    expect(thrown(noReceiver).message).toMatch(/lacks its \[SUM\] receiver line/);
  });

  it("-P 2 cut before its [SUM] totals is refused, not read as one stream's rate", () => {
    const whole = parse('text-tcp-p2.txt').flows[0]!;
    expect(whole.received.bits_per_second).toBe(2.6e9);
    for (const name of ['text-tcp-p2-cut-sum.txt', 'text-tcp-p2-cut-sum-receiver.txt']) {
      const error = thrown(fixture(name), name);
      expect(error).toBeInstanceOf(ParseError);
      expect(error.message).toMatch(new RegExp(`^${name.replace(/\./g, '\\.')}:\\d+: the forward summary lacks its \\[SUM\\] (sender|receiver) line`));
    }
    expect(thrown(fixture('text-tcp-p2-cut-sum.txt')).message).toMatch(/lacks its \[SUM\] sender line/);
    expect(thrown(fixture('text-tcp-p2-cut-sum-receiver.txt')).message).toMatch(/lacks its \[SUM\] receiver line/);
  });

  it('garbage is not iperf3', () => {
    expect(thrown('hello\nworld\n').message).toBe('report.txt: not an iperf3 report: no "Connecting to host" line and no sender/receiver summary');
  });

  it('never throws anything but ParseError on truncated or corrupted reports', () => {
    for (const name of ['text-tcp-1.txt', 'text-udp-bidir.txt', 'text-tcp-verbose.txt']) {
      const text = fixture(name);
      const variants = [text.slice(0, text.length / 3), text.replace(/\d/g, 'x'), text.split('').reverse().join('')];
      for (const variant of variants) {
        try {
          parseIperf3Text(variant, name);
        } catch (error) {
          expect(error, name).toBeInstanceOf(ParseError);
        }
      }
    }
  });
});

describe('sniffIperf3', () => {
  it('recognises text reports (client, server, -V, --timestamps, errors) and -J JSON', () => {
    for (const name of ['text-tcp-1.txt', 'server-text-udp.txt', 'text-tcp-verbose.txt', 'text-tcp-timestamps.txt', 'error-text-refused.txt', 'tcp-1.json', 'error-refused.json']) {
      expect(sniffIperf3(fixture(name)), name).toBe(true);
    }
  });

  it('leaves other tools and other JSON alone', () => {
    expect(sniffIperf3('{"run": {"runId": "x"}, "samples": []}')).toBe(false);
    expect(sniffIperf3('Client connecting to 10.0.0.2, TCP port 5001\n')).toBe(false);
    expect(sniffIperf3('PING 10.0.0.2 (10.0.0.2) 56(84) bytes of data.\n')).toBe(false);
  });
});
