import { readFileSync } from 'node:fs';
import type { SampleInput } from '@netbench/plugin-api';
import { ParseError } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import { parsePingOutput } from './parse-output.js';
import { pingSamples } from './ping-samples.js';
import { pingPlugin } from './plugin.js';
import { sniffPing } from './sniff.js';

// Outputs `netbench import` meets beyond what `run` produces; real captures between two namespaces (10.213.61.1 → .2).
const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
const value = (samples: readonly SampleInput[], metric: string) => samples.find((s) => s.metric === metric)?.value;

describe('ping outputs for import', () => {
  it('flood to an address nobody answers: E marks, +errors and pipe in the summary', () => {
    const output = parsePingOutput(fixture('ping-flood-errors.txt'), 'f.txt');
    expect(output).toMatchObject({ flood: true, pipe: 170, replies: [] });
    expect(output.summary).toMatchObject({ transmitted: 300, received: 0, errors: 12, lossPercent: 100 });
    const samples = pingSamples(output);
    expect(value(samples, 'Packet Errors')).toBe(12);
    expect(value(samples, 'Packet Loss')).toBe(100);
    expect(samples.some((s) => s.metric.startsWith('Latency p'))).toBe(false);
  });

  it('adaptive (-A) prints per-packet lines and ipg/ewma', () => {
    const samples = pingSamples(parsePingOutput(fixture('ping-adaptive.txt')));
    expect(value(samples, 'Interpacket Gap')).toBe(0.029);
    expect(value(samples, 'Latency EWMA')).toBe(0.013);
    expect(value(samples, 'Packets Received')).toBe(20);
    expect(samples.find((s) => s.metric === 'Average Latency')!.histogram!.count).toBe(20);
  });

  it('flood with -D still prints no per-packet lines: summary and ipg/ewma only', () => {
    const output = parsePingOutput(fixture('ping-flood-timestamps.txt'));
    expect(output).toMatchObject({ flood: true, replies: [], ipg: { gapMs: 0.022, ewmaMs: 0.01 } });
    expect(output.summary.transmitted).toBe(200);
  });

  it('says what ping said when it could not start (real stderr of ping to an unrouted address)', () => {
    const error = (() => {
      try {
        parsePingOutput('ping: connect: Network is unreachable\n', 'p.txt');
      } catch (caught) {
        return caught as Error;
      }
      throw new Error('expected a throw');
    })();
    expect(error).toBeInstanceOf(ParseError);
    expect(error.message).toBe('p.txt:1: ping failed: ping: connect: Network is unreachable');
  });

  it('reads plain reply lines on the fast path exactly as the general path does', () => {
    const raw = fixture('ping-timestamps.txt');
    // A trailing space sends every reply line through the general path.
    const general = raw
      .split('\n')
      .map((line) => (line.includes('bytes from') ? `${line} ` : line))
      .join('\n');
    expect(parsePingOutput(raw)).toEqual(parsePingOutput(general));
    const crlf = raw.replace(/\n/g, '\r\n');
    expect(parsePingOutput(crlf).replies).toEqual(parsePingOutput(raw).replies);
  });

  it('counts a wrapped 16-bit sequence number as a new reply, a repeated one as a duplicate', () => {
    const lines = ['PING 10.0.0.2 (10.0.0.2) 56(84) bytes of data.'];
    for (let i = 1; i <= 70_000; i += 1) lines.push(`64 bytes from 10.0.0.2: icmp_seq=${i % 65_536} ttl=64 time=0.050 ms`);
    lines.push(
      '64 bytes from 10.0.0.2: icmp_seq=4464 ttl=64 time=0.050 ms',
      '',
      '--- 10.0.0.2 ping statistics ---',
      '70001 packets transmitted, 70000 received, +1 duplicates, 0% packet loss, time 1000ms',
    );
    const output = parsePingOutput(lines.join('\n'));
    expect(output.replies).toHaveLength(70_001);
    expect(output.replies.filter((r) => r.duplicate)).toHaveLength(1);
  });

  it('labels parse() samples with the test pingTrials names (icmp)', () => {
    expect(pingPlugin().parse(fixture('ping-normal.txt'))[0]!.labels).toMatchObject({ test: 'icmp' });
  });
});

describe('sniffPing', () => {
  it('recognises iputils output, IPv6, and the diagnostics it prints instead', () => {
    for (const name of ['ping-normal.txt', 'ping-flood-errors.txt', 'ping-ipv6-loopback.txt', 'ping-quiet.txt']) expect(sniffPing(fixture(name)), name).toBe(true);
    expect(sniffPing('ping: connect: Network is unreachable\n')).toBe(true);
  });

  it('leaves other tools alone', () => {
    expect(sniffPing('10.0.0.2 : [0], 64 bytes, 0.05 ms (0.05 avg, 0% loss)\n')).toBe(false);
    expect(sniffPing('Connecting to host 10.0.0.2, port 5201\n')).toBe(false);
    expect(sniffPing('')).toBe(false);
  });
});
