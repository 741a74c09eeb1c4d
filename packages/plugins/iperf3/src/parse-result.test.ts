import { readFileSync } from 'node:fs';
import type { SampleInput } from '@netbench/plugin-api';
import { isRetryable, ParseError } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import { Iperf3Error, RetryableIperf3Error } from './iperf3-error.js';
import { iperf3Samples } from './iperf3-samples.js';
import { parseIperf3Json } from './parse-result.js';
import { iperf3Plugin } from './plugin.js';
import { iperf3Schema } from './schema.js';
import { clientArgv } from './trial-settings.js';
import { iperf3Trials } from './trials.js';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
const parse = (name: string) => parseIperf3Json(fixture(name), name);
const samplesOf = (name: string) => iperf3Samples(parse(name));
/** Value of the one sample with this metric (and direction, when given). */
const value = (samples: readonly SampleInput[], metric: string, direction?: string) => {
  const found = samples.filter((s) => s.metric === metric && (direction === undefined || s.labels?.direction === direction));
  expect(found, `${metric} ${direction ?? ''}`).toHaveLength(1);
  return found[0]!.value;
};
const mbit = (bitsPerSecond: number) => bitsPerSecond / 1e6;

describe('parseIperf3Json on real iperf 3.12 -J outputs', () => {
  it('TCP, 1 stream, 1 s omitted: receiver throughput, retransmits, CPU, intervals', () => {
    const result = parse('tcp-1.json');
    expect(result).toMatchObject({
      version: 'iperf 3.12',
      protocol: 'tcp',
      streams: 1,
      duration: 2,
      omit: 1,
      blockSize: 131072,
      targetBitrate: 0,
      reverse: false,
      bidir: false,
      startedAt: 1795346615000,
      tcpMssDefault: 1448,
      congestion: 'bbr',
    });
    const samples = iperf3Samples(result);
    expect(value(samples, 'Throughput', 'forward')).toBe(mbit(13676329531.214087));
    expect(value(samples, 'Sent Throughput', 'forward')).toBe(mbit(13674824456.915379));
    expect(value(samples, 'Bytes Sent')).toBe(3419668480);
    expect(value(samples, 'Bytes Received')).toBe(3421373168);
    expect(value(samples, 'Retransmits')).toBe(227);
    expect(value(samples, 'Client CPU Utilization')).toBe(82.02511350614986);
    expect(value(samples, 'Client CPU User')).toBe(2.0117837327493624);
    expect(value(samples, 'Client CPU System')).toBe(80.01336306454286);
    expect(value(samples, 'Server CPU Utilization')).toBe(67.6305827807774);
    expect(value(samples, 'Server CPU System')).toBe(65.34113208502666);
    expect(samples.find((s) => s.metric === 'Jitter')).toBeUndefined();
    const throughput = samples.find((s) => s.metric === 'Throughput')!;
    expect(throughput.unit).toBe('Mbits/sec');
    expect(throughput.labels).toEqual({
      protocol: 'tcp',
      streams: 1,
      duration: 2,
      omit: 1,
      reverse: false,
      bidir: false,
      block_size: 131072,
      target_bitrate: 0,
      congestion: 'bbr',
      client_cc: 'bbr',
      server_cc: 'bbr',
      tcp_mss_default: 1448,
      direction: 'forward',
    });
    // Measured totals end 1 s (omit) + 2.00134 s after the start.
    expect(throughput.timestamp).toBe(1795346615000 + Math.round((1 + 2.00134) * 1000));
  });

  it('keeps every interval as a sample, the omitted warm-up labelled', () => {
    const intervals = samplesOf('tcp-1.json').filter((s) => s.metric === 'Interval Throughput');
    expect(intervals.map((s) => [s.value, s.labels!.interval_start, s.labels!.interval_end, s.labels!.omitted, s.labels!.direction])).toEqual([
      [mbit(11973655431.16079), 0, 1.000178, true, 'forward'],
      [mbit(14065644006.026854), 5e-5, 1.000394, false, 'forward'],
      [mbit(13283212542.055931), 1.000394, 2.000563, false, 'forward'],
    ]);
    expect(intervals.map((s) => s.timestamp)).toEqual([1795346616000, 1795346617000, 1795346618001]);
  });

  it('TCP, 4 streams: the sums', () => {
    const samples = samplesOf('tcp-4.json');
    expect(value(samples, 'Throughput')).toBe(mbit(18271503779.613136));
    expect(value(samples, 'Retransmits')).toBe(51);
    expect(samples.find((s) => s.metric === 'Throughput')!.labels).toMatchObject({ streams: 4 });
    expect(samples.filter((s) => s.metric === 'Interval Throughput').map((s) => s.value)).toEqual([mbit(20533899345.55344), mbit(16011339423.313364)]);
  });

  it('TCP -R: one direction, server to client', () => {
    const samples = samplesOf('tcp-reverse.json');
    expect(value(samples, 'Throughput', 'reverse')).toBe(mbit(13703223098.960546));
    expect(value(samples, 'Retransmits', 'reverse')).toBe(170);
    expect(samples.filter((s) => s.labels?.direction === 'forward')).toEqual([]);
    expect(samples.find((s) => s.metric === 'Throughput')!.labels).toMatchObject({ reverse: true, bidir: false });
  });

  it('TCP --bidir: both directions, separately labelled, totals and intervals', () => {
    const samples = samplesOf('tcp-bidir.json');
    expect(value(samples, 'Throughput', 'forward')).toBe(mbit(8574110477.682334));
    expect(value(samples, 'Throughput', 'reverse')).toBe(mbit(3235325621.297726));
    expect(value(samples, 'Retransmits', 'forward')).toBe(560);
    expect(value(samples, 'Retransmits', 'reverse')).toBe(256);
    const intervals = samples.filter((s) => s.metric === 'Interval Throughput');
    expect(intervals.map((s) => [s.labels!.direction, s.value])).toEqual([
      ['forward', mbit(6151265692.850857)],
      ['reverse', mbit(4414869227.253945)],
      ['forward', mbit(11014641040.27067)],
      ['reverse', mbit(2060262381.2468188)],
    ]);
    expect(intervals[0]!.labels).toMatchObject({ bidir: true });
  });

  it('UDP: receiver jitter and loss, packets sent, out of order', () => {
    const samples = samplesOf('udp.json');
    expect(value(samples, 'Throughput')).toBe(mbit(49979887.0414653));
    expect(value(samples, 'Jitter')).toBe(0.011871488955759273);
    expect(value(samples, 'Lost Packets')).toBe(0);
    expect(value(samples, 'Packet Loss')).toBe(0);
    expect(value(samples, 'Packets Sent')).toBe(8630);
    expect(value(samples, 'Out Of Order')).toBe(0);
    expect(samples.find((s) => s.metric === 'Retransmits')).toBeUndefined();
    expect(samples.find((s) => s.metric === 'Jitter')!.unit).toBe('ms');
    expect(samples[0]!.labels).toMatchObject({ protocol: 'udp', target_bitrate: 50_000_000, block_size: 1448 });
  });

  it('UDP with loss behind a 40 Mbit/s bottleneck', () => {
    const samples = samplesOf('udp-loss.json');
    expect(value(samples, 'Throughput')).toBe(mbit(38771590.20534267));
    expect(value(samples, 'Sent Throughput')).toBe(mbit(79966585.48694584));
    expect(value(samples, 'Lost Packets')).toBe(7068);
    expect(value(samples, 'Packet Loss')).toBe(51.191424639675525);
    expect(value(samples, 'Packets Sent')).toBe(13807);
    expect(value(samples, 'Jitter')).toBe(0.39263316531212544);
  });

  it('UDP -R: reverse direction, half-second intervals', () => {
    const samples = samplesOf('udp-reverse.json');
    expect(value(samples, 'Jitter', 'reverse')).toBe(0.019779638802410134);
    expect(value(samples, 'Packets Sent', 'reverse')).toBe(5178);
    expect(samples.filter((s) => s.metric === 'Interval Throughput').map((s) => s.labels!.interval_end)).toEqual([0.5001, 1.000116, 1.500094, 2.00011]);
  });

  it('UDP --bidir: each direction its own jitter and loss', () => {
    const samples = samplesOf('udp-bidir.json');
    expect(value(samples, 'Jitter', 'forward')).toBe(0.04824158176379905);
    expect(value(samples, 'Jitter', 'reverse')).toBe(0.01623415418322392);
    expect(value(samples, 'Packets Sent', 'reverse')).toBe(3454);
    expect(value(samples, 'Bytes Received', 'reverse')).toBe(4999944);
    expect(value(samples, 'Out Of Order', 'reverse')).toBe(0);
  });

  it('is what the plugin parse() returns, labelled with the test as iperf3Trials names it (for import)', () => {
    const expected = samplesOf('udp.json').map((s) => ({ ...s, labels: { ...s.labels, test: 'udp' } }));
    expect(iperf3Plugin().parse(fixture('udp.json'), { source: 'udp.json' })).toEqual(expected);
  });
});

describe('parseIperf3Json on errors and broken input', () => {
  const thrown = (raw: string, source = 'broken.json'): Error => {
    try {
      parseIperf3Json(raw, source);
    } catch (error) {
      return error as Error;
    }
    throw new Error('expected an error');
  };

  it('connection refused (server not up yet) is retryable', () => {
    const error = thrown(fixture('error-refused.json'), 'error-refused.json');
    expect(error).toBeInstanceOf(RetryableIperf3Error);
    expect(isRetryable(error)).toBe(true);
    expect(error.message).toBe('iperf3 reported an error in error-refused.json: unable to connect to server: Connection refused');
  });

  it('other reported errors are plain failures', () => {
    const error = thrown(fixture('error-address-in-use.json'));
    expect(error).toBeInstanceOf(Iperf3Error);
    expect(isRetryable(error)).toBe(false);
    expect(error.message).toContain('unable to start listener for connections: Address already in use');
  });

  it('garbage: ParseError naming the source and line', () => {
    const error = thrown('iperf3: error - unable to connect\n') as ParseError;
    expect(error).toBeInstanceOf(ParseError);
    expect(error.source).toBe('broken.json');
    expect(error.line).toBe(1);
    expect(error.message).toMatch(/^broken\.json:1: not iperf3 JSON/);
  });

  it('truncated JSON: ParseError at the end', () => {
    const raw = fixture('tcp-1.json');
    const cut = raw.slice(0, raw.indexOf('"intervals"') + 20);
    const error = thrown(cut) as ParseError;
    expect(error).toBeInstanceOf(ParseError);
    expect(error.line).toBe(cut.split('\n').length);
  });

  it('empty output', () => {
    expect(thrown('').message).toMatch(/not iperf3 JSON \(empty output\)/);
  });

  it('JSON of another shape: ParseError with the path', () => {
    const error = thrown(JSON.stringify({ start: {}, intervals: [], end: {} }));
    expect(error).toBeInstanceOf(ParseError);
    expect(error.message).toMatch(/unexpected iperf3 JSON at start\.test_start/);
  });

  it("the server's JSON is refused with a hint", () => {
    expect(thrown(fixture('server-tcp-1.json')).message).toMatch(/server's -J output.*import the client's output/);
  });
});

describe('congestion control of each end', () => {
  it('labels client_cc and server_cc by role: with -R the server is the sender', () => {
    const forward = JSON.parse(readFileSync(new URL('./__fixtures__/tcp-1.json', import.meta.url), 'utf8'));
    forward.end.sender_tcp_congestion = 'cubic';
    forward.end.receiver_tcp_congestion = 'reno';
    const labels = iperf3Samples(parseIperf3Json(JSON.stringify(forward))).find((s) => s.metric === 'Throughput')!.labels;
    expect(labels).toMatchObject({ client_cc: 'cubic', server_cc: 'reno' });
    const reverse = JSON.parse(readFileSync(new URL('./__fixtures__/tcp-reverse.json', import.meta.url), 'utf8'));
    reverse.end.sender_tcp_congestion = 'cubic';
    reverse.end.receiver_tcp_congestion = 'reno';
    const reverseLabels = iperf3Samples(parseIperf3Json(JSON.stringify(reverse))).find((s) => s.metric === 'Throughput')!.labels;
    expect(reverseLabels).toMatchObject({ reverse: true, client_cc: 'reno', server_cc: 'cubic' });
  });

  it('passes congestion as -C for TCP only, and refuses it for UDP alone', () => {
    const [tcp, udp] = iperf3Trials(iperf3Schema.parse({ protocol: ['tcp', 'udp'], congestion: 'cubic' }));
    expect(clientArgv(tcp!.params, '10.0.0.2', 5201).slice(-2)).toEqual(['-C', 'cubic']);
    expect(clientArgv(udp!.params, '10.0.0.2', 5201)).not.toContain('-C');
    expect(iperf3Schema.safeParse({ protocol: 'udp', congestion: 'cubic' }).success).toBe(false);
    expect(iperf3Schema.safeParse({ congestion: 'cubic; reboot' }).success).toBe(false);
  });
});
