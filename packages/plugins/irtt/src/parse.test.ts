import { readFileSync } from 'node:fs';
import type { SampleInput } from '@netbench/plugin-api';
import { LatencyHistogram, ParseError } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import { readIrttVersion } from './check.js';
import { irttSamples } from './irtt-samples.js';
import { goDurationMs, parsePacketLine } from './packet-line.js';
import { parseIrttJson } from './parse-result.js';
import { sniffIrtt } from './sniff.js';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
const one = (samples: readonly SampleInput[], metric: string) => {
  const found = samples.filter((s) => s.metric === metric);
  expect(found, metric).toHaveLength(1);
  return found[0]!;
};

describe('parseIrttJson', () => {
  it('reads the lossless run: parameters, RTT, one-way delays, IPDV, counts', () => {
    const result = parseIrttJson(fixture('irtt-dscp-fill.json'));
    expect(result).toMatchObject({ version: '0.9.0', remoteAddress: '127.0.0.1:29113', intervalNs: 10_000_000, durationNs: 300_000_000, length: 172, dscp: 46 });
    expect(result.packetsSent).toBe(result.roundTrips.length);
    expect(result.packetsReceived).toBe(result.packetsSent);
    expect(result.lossPercent).toBe(0);
    expect(result.rtt!.n).toBe(result.packetsReceived);
    expect(result.rtt!.min).toBeLessThanOrEqual(result.rtt!.median!);
    expect(result.roundTrips.every((trip) => trip.lost === 'false' && trip.rtt! > 0 && trip.sentAt! > 1.7e12)).toBe(true);
  });

  it('reads loss per direction and which packets were lost which way', () => {
    const result = parseIrttJson(fixture('irtt-loss.json'));
    expect(result.packetsSent).toBe(40);
    expect(result.packetsReceived).toBe(25);
    expect(result.serverPacketsReceived).toBe(30);
    expect(result.lossPercent).toBe(37.5);
    expect(result.upstreamLossPercent).toBe(25);
    expect(result.downstreamLossPercent).toBeCloseTo(16.67, 1);
    const lost = (kind: string) => result.roundTrips.filter((trip) => trip.lost === kind).length;
    expect([lost('false'), lost('true_up'), lost('true_down'), lost('true')]).toEqual([25, 9, 5, 1]);
    expect(result.roundTrips.filter((trip) => trip.lost !== 'false').every((trip) => trip.rtt === undefined)).toBe(true);
  });

  it('names the file and the problem on bad input', () => {
    expect(() => parseIrttJson('seq=0 rtt=1ms', 'x.json')).toThrow(ParseError);
    expect(() => parseIrttJson('{"version":{"irtt":"0.9.0"}}', 'x.json')).toThrow(/x\.json: no config\.params/);
    const broken = JSON.parse(fixture('irtt-loss.json'));
    delete broken.stats.packets_sent;
    expect(() => parseIrttJson(JSON.stringify(broken), 'y.json')).toThrow(/y\.json: stats\.packets_sent is not a number/);
  });
});

describe('irttSamples', () => {
  it('gives ms summaries, percentiles from every packet and the RTT histogram', () => {
    const result = parseIrttJson(fixture('irtt-dscp-fill.json'));
    const samples = irttSamples(result, { interval: 0.01 });
    const mean = one(samples, 'rtt_mean');
    expect(mean.unit).toBe('ms');
    expect(mean.value).toBeCloseTo(result.rtt!.mean / 1e6, 9);
    expect(mean.labels).toMatchObject({ destination: '127.0.0.1:29113', packet_length: 172, interval: 0.01, irtt_version: '0.9.0' });
    const histogram = LatencyHistogram.decode(mean.histogram!);
    expect(histogram.count).toBe(result.packetsReceived);
    // The histogram's median is the packets' median, to its 3 significant digits.
    expect(one(samples, 'rtt_p50').value).toBeCloseTo(result.rtt!.median! / 1e6, 2);
    expect(one(samples, 'send_delay_median').value).toBeCloseTo(result.sendDelay!.median! / 1e6, 9);
    expect(one(samples, 'receive_delay_mean').histogram!.count).toBe(result.packetsReceived);
    expect(one(samples, 'ipdv_mean').value).toBeGreaterThan(0);
    expect(one(samples, 'packet_loss').value).toBe(0);
    expect(samples.some((s) => s.labels?.series === 'per_packet')).toBe(false);
  });

  it('reports loss up and down, and per packet on request (lost ones with their direction)', () => {
    const result = parseIrttJson(fixture('irtt-loss.json'));
    const samples = irttSamples(result, {}, { perPacket: true });
    expect(one(samples, 'upstream_loss').value).toBe(25);
    expect(one(samples, 'server_packets_received').value).toBe(30);
    const perPacket = samples.filter((s) => s.labels?.series === 'per_packet');
    expect(perPacket.filter((s) => s.metric === 'rtt')).toHaveLength(25);
    expect(
      perPacket
        .filter((s) => s.metric === 'packet_lost')
        .map((s) => s.labels!.lost)
        .sort(),
    ).toEqual([...Array(5).fill('down'), 'unknown', ...Array(9).fill('up')]);
    const times = perPacket.filter((s) => s.metric === 'rtt').map((s) => s.timestamp!);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    // 50 ms apart over 2 s
    expect(times.at(-1)! - times[0]!).toBeGreaterThan(1500);
  });
});

describe('per-packet lines (stderr, streamed by flows)', () => {
  it('reads every packet line of a captured run and nothing else', () => {
    const text = fixture('irtt-loss.stderr.txt');
    const packets = text
      .split('\n')
      .map(parsePacketLine)
      .filter((p) => p !== undefined);
    expect(packets).toHaveLength(25);
    const json = parseIrttJson(fixture('irtt-loss.json'));
    const received = json.roundTrips.filter((trip) => trip.lost === 'false');
    expect(packets.map((p) => p.seq)).toEqual(received.map((trip) => trip.seqno));
    // irtt rounds to 3-4 significant digits in text.
    packets.forEach((packet, i) => expect(packet.rttMs).toBeCloseTo(received[i]!.rtt! / 1e6, 2));
  });

  it('reads Go durations in every unit and refuses the rest', () => {
    expect(parsePacketLine('seq=5 rtt=341.4ms rd=143µs sd=341.3ms ipdv=n/a')).toEqual({ seq: 5, rttMs: 341.4, receiveDelayMs: expect.closeTo(0.143, 9), sendDelayMs: 341.3 });
    expect(goDurationMs('511ns')).toBeCloseTo(0.000511, 9);
    expect(goDurationMs('1.5s')).toBe(1500);
    expect(goDurationMs('n/a')).toBeUndefined();
    expect(parsePacketLine('[Connected] connection established')).toBeUndefined();
    expect(parsePacketLine('                RTT  91.6µs   117µs   115µs    165µs   20.9µs')).toBeUndefined();
  });
});

describe('sniff and version', () => {
  it('knows irtt JSON from other JSON', () => {
    expect(sniffIrtt(fixture('irtt-loss.json').slice(0, 300))).toBe(true);
    expect(sniffIrtt('{"start": {"version": "iperf 3.12"}}')).toBe(false);
    expect(sniffIrtt(fixture('irtt-loss.stderr.txt'))).toBe(false);
  });

  it('reads irtt version', () => {
    expect(readIrttVersion('irtt version: 0.9.0\nprotocol version: 1\njson format version: 1\n')).toEqual({ version: '0.9.0', jsonFormat: '1' });
    expect(readIrttVersion('iperf 3.12')).toBeUndefined();
  });
});
