import { readFileSync } from 'node:fs';
import { ParseError } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import { parsePingOutput } from './parse-output.js';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
const parse = (name: string) => parsePingOutput(fixture(name), name);

describe('parsePingOutput on real iputils s20221126 outputs', () => {
  it('reads per-packet lines and the summary of a normal run', () => {
    const out = parse('ping-normal.txt');
    expect(out).toMatchObject({ destination: '10.213.7.2', address: '10.213.7.2', payloadBytes: 56, flood: false });
    expect(out.replies).toHaveLength(20);
    expect(out.replies[0]).toEqual({ seq: 1, from: '10.213.7.2', bytes: 64, ttl: 64, rttMs: 0.057, timestamp: undefined, duplicate: false });
    expect(out.replies[19]).toMatchObject({ seq: 20, rttMs: 0.072 });
    expect(out.summary).toEqual({ transmitted: 20, received: 20, duplicates: 0, corrupted: 0, errors: 0, lossPercent: 0, timeMs: 3873 });
    expect(out.rtt).toEqual({ min: 0.057, avg: 0.084, max: 0.112, mdev: 0.012 });
    expect(out.ipg).toBeUndefined();
  });

  it('reads -D timestamps', () => {
    const out = parse('ping-timestamps.txt');
    expect(out.replies).toHaveLength(50);
    expect(out.replies[0]).toMatchObject({ seq: 1, rttMs: 0.038, timestamp: 1795346080687 });
    expect(out.replies[49]).toMatchObject({ seq: 50, timestamp: 1795346081470 });
    expect(out.summary).toMatchObject({ transmitted: 50, received: 50, lossPercent: 0, timeMs: 783 });
    expect(out.rtt).toEqual({ min: 0.038, avg: 0.074, max: 0.097, mdev: 0.013 });
  });

  it('reads a summary-only (-q) run', () => {
    const out = parse('ping-quiet.txt');
    expect(out.replies).toEqual([]);
    expect(out.summary).toMatchObject({ transmitted: 10, received: 10, lossPercent: 0, timeMs: 143 });
    expect(out.rtt).toEqual({ min: 0.063, avg: 0.07, max: 0.083, mdev: 0.005 });
  });

  it('reads a flood run: dots instead of lines, ipg/ewma in the summary', () => {
    const out = parse('ping-flood.txt');
    expect(out.flood).toBe(true);
    expect(out.replies).toEqual([]);
    expect(out.summary).toMatchObject({ transmitted: 500, received: 500, lossPercent: 0, timeMs: 10 });
    expect(out.rtt).toEqual({ min: 0.011, avg: 0.011, max: 0.049, mdev: 0.002 });
    expect(out.ipg).toEqual({ gapMs: 0.02, ewmaMs: 0.012 });
  });

  it('reads 100% loss: no rtt line', () => {
    const out = parse('ping-loss-100.txt');
    expect(out.address).toBe('10.213.7.99');
    expect(out.replies).toEqual([]);
    expect(out.summary).toEqual({ transmitted: 3, received: 0, duplicates: 0, corrupted: 0, errors: 0, lossPercent: 100, timeMs: 2035 });
    expect(out.rtt).toBeUndefined();
  });

  it('reads Destination Host Unreachable from a router', () => {
    const out = parse('ping-unreachable.txt');
    expect(out.errorReplies).toEqual([
      { from: '10.213.7.2', seq: 1, message: 'Destination Host Unreachable', timestamp: 1795346085092 },
      { from: '10.213.7.2', seq: 2, message: 'Destination Host Unreachable', timestamp: 1795346085294 },
    ]);
    expect(out.summary).toMatchObject({ transmitted: 3, received: 0, errors: 2, lossPercent: 100, timeMs: 406 });
  });

  it('reads unreachable errors from the local stack and a lone "pipe N" line', () => {
    const out = parse('ping-unreachable-arp.txt');
    expect(out.errorReplies.map((e) => [e.from, e.seq])).toEqual([
      ['10.213.7.1', 1],
      ['10.213.7.1', 2],
      ['10.213.7.1', 3],
    ]);
    expect(out.summary).toMatchObject({ transmitted: 5, received: 0, errors: 3, lossPercent: 100, timeMs: 4078 });
    expect(out.pipe).toBe(4);
    expect(out.rtt).toBeUndefined();
  });

  it('counts broadcast replies to an answered sequence as duplicates, as ping does', () => {
    const out = parse('ping-duplicates.txt');
    expect(out.replies).toHaveLength(7);
    expect(out.replies.filter((r) => r.duplicate)).toHaveLength(4);
    expect(out.replies.filter((r) => !r.duplicate).map((r) => [r.seq, r.from])).toEqual([
      [1, '10.213.7.1'],
      [2, '10.213.7.1'],
      [3, '10.213.7.1'],
    ]);
    expect(out.summary).toMatchObject({ transmitted: 3, received: 3, duplicates: 4, lossPercent: 0 });
  });

  it('reads partial loss, whole-millisecond RTTs and "pipe" after the rtt line', () => {
    const out = parse('ping-partial-loss.txt');
    expect(out.payloadBytes).toBe(1400);
    expect(out.replies.map((r) => [r.seq, r.rttMs, r.bytes])).toEqual([
      [1, 0.061, 1408],
      [2, 136, 1408],
      [3, 293, 1408],
      [8, 350, 1408],
      [16, 344, 1408],
    ]);
    expect(out.summary).toMatchObject({ transmitted: 20, received: 5, lossPercent: 75, timeMs: 452 });
    expect(out.rtt).toEqual({ min: 0.061, avg: 224.763, max: 350.278, mdev: 136.346 });
    expect(out.pipe).toBe(13);
  });

  it('reads replies without a time (payload too small to carry a timestamp)', () => {
    const out = parse('ping-no-time.txt');
    expect(out.payloadBytes).toBe(8);
    expect(out.replies.map((r) => [r.seq, r.bytes, r.rttMs])).toEqual([
      [1, 16, undefined],
      [2, 16, undefined],
      [3, 16, undefined],
    ]);
    expect(out.rtt).toBeUndefined();
    expect(out.summary).toMatchObject({ transmitted: 3, received: 3 });
  });

  it('reads the IPv6 header form', () => {
    const out = parse('ping-ipv6-loopback.txt');
    expect(out).toMatchObject({ destination: '::1', address: '::1', payloadBytes: 56 });
    expect(out.replies.map((r) => r.rttMs)).toEqual([0.032, 0.053, 0.053, 0.191, 0.052]);
    expect(out.rtt).toEqual({ min: 0.032, avg: 0.076, max: 0.191, mdev: 0.057 });
  });
});

describe('parsePingOutput on broken input', () => {
  const parseError = (raw: string): ParseError => {
    try {
      parsePingOutput(raw, 'broken.txt');
    } catch (error) {
      expect(error).toBeInstanceOf(ParseError);
      return error as ParseError;
    }
    throw new Error('expected a ParseError');
  };

  it('names source and line of garbage', () => {
    const error = parseError('<html>\n<body>503</body>\n');
    expect(error.source).toBe('broken.txt');
    expect(error.line).toBe(1);
    expect(error.message).toMatch(/^broken\.txt:1: not ping output/);
  });

  it('names the line of an unknown line in the middle', () => {
    const lines = fixture('ping-normal.txt').split('\n');
    lines.splice(3, 0, 'Segmentation fault');
    const error = parseError(lines.join('\n'));
    expect(error.line).toBe(4);
    expect(error.message).toContain('"Segmentation fault"');
  });

  it('rejects output cut before the statistics (ping killed)', () => {
    const cut = fixture('ping-timestamps.txt').split('\n').slice(0, 10).join('\n');
    expect(parseError(cut).message).toMatch(/no "packets transmitted" statistics/);
  });

  it('rejects a mangled statistics line', () => {
    const mangled = fixture('ping-normal.txt').replace('rtt min/avg/max/mdev = 0.057', 'rtt min/avg/max/mdev = abc');
    expect(parseError(mangled).line).toBe(25);
  });

  it('rejects empty output', () => {
    expect(parseError('').message).toMatch(/empty output/);
  });
});
