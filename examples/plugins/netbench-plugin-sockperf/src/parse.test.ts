import { readFileSync } from 'node:fs';
import { ParseError } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import { fullLogHistogram } from './full-log.js';
import { parseSockperf } from './parse.js';
import { clientArgv } from './run.js';
import { sockperfSchema } from './schema.js';
import { sockperfTrials } from './trials.js';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
const value = (samples: ReturnType<typeof parseSockperf>, metric: string) => samples.find((s) => s.metric === metric)?.value;

describe('parseSockperf', () => {
  it('reads every percentile from p25 to p99.999 of a real ping-pong run', () => {
    const samples = parseSockperf(fixture('ping-pong-udp.txt'), { source: 'ping-pong-udp.txt' });
    const percentiles = samples.filter((s) => /^latency_p/.test(s.metric)).map((s) => s.metric);
    expect(percentiles).toEqual(['latency_p99.999', 'latency_p99.99', 'latency_p99.9', 'latency_p99', 'latency_p90', 'latency_p75', 'latency_p50', 'latency_p25']);
    const p = (m: string) => value(samples, m)!;
    // Percentiles are ordered, bounded by min and max.
    expect(p('latency_min')).toBeLessThanOrEqual(p('latency_p25'));
    expect(p('latency_p25')).toBeLessThanOrEqual(p('latency_p50'));
    expect(p('latency_p50')).toBeLessThanOrEqual(p('latency_p99.999'));
    expect(p('latency_p99.999')).toBeLessThanOrEqual(p('latency_max'));
    expect(value(samples, 'observations')).toBeGreaterThan(1000);
    expect(samples[0]!.labels).toEqual({ mode: 'ping-pong', protocol: 'udp', latency_kind: 'one-way' });
    expect(samples.every((s) => s.unit === 'us' || !s.metric.startsWith('latency_'))).toBe(true);
  });

  it('tells under-load from ping-pong, TCP from UDP, round trips from one-way', () => {
    expect(parseSockperf(fixture('under-load-tcp.txt'))[0]!.labels).toMatchObject({ mode: 'under-load', protocol: 'tcp' });
    expect(parseSockperf(fixture('under-load-udp.txt'))[0]!.labels).toMatchObject({ mode: 'under-load', protocol: 'udp' });
    expect(parseSockperf(fixture('ping-pong-tcp.txt'))[0]!.labels).toMatchObject({ mode: 'ping-pong', protocol: 'tcp' });
    const rtt = parseSockperf(fixture('ping-pong-full-rtt.txt'));
    expect(rtt[0]!.labels).toMatchObject({ latency_kind: 'round-trip' });
    expect(rtt.some((s) => s.metric === 'rtt_p50')).toBe(true);
  });

  it("rejects sockperf's error reports with a ParseError naming the line", () => {
    expect(() => parseSockperf(fixture('error-tcp-refused.txt'), { source: 'e.txt' })).toThrow(
      new ParseError('sockperf reported an error: Can`t connect socket (errno=111 Connection refused)', 'e.txt', 2),
    );
    expect(() => parseSockperf(fixture('error-udp-no-server.txt'))).toThrow(/no reply from the server/);
  });
});

describe('fullLogHistogram', () => {
  it("holds every observation of a real --full-log, in ns, agreeing with sockperf's own percentiles", () => {
    const log = readFileSync(new URL('./__full-logs__/ping-pong-mps500.csv', import.meta.url), 'utf8');
    const histogram = fullLogHistogram(log);
    expect(histogram.unit).toBe('ns');
    // sockperf printed "Total 274 observations" and p50 = 19.619 usec in the same file.
    expect(histogram.count).toBe(274);
    expect(histogram.percentile(50) / 1000).toBeCloseTo(19.619, 1);
    expect(() => fullLogHistogram('hello')).toThrow(ParseError);
  });
});

describe('trials and argv', () => {
  it('expands mode × protocol and passes every value as its own argument', () => {
    const trials = sockperfTrials(sockperfSchema.parse({ mode: ['ping-pong', 'under-load'], protocol: ['udp', 'tcp'], duration: 2 }));
    expect(trials.map((t) => `${t.test}/${t.params['protocol']}`)).toEqual(['ping-pong/udp', 'ping-pong/tcp', 'under-load/udp', 'under-load/tcp']);
    const underLoad = trials[3]!;
    expect(clientArgv({ ...underLoad, target: '10.0.0.2' }, 11111, '/tmp/x.csv')).toEqual([
      'sockperf',
      'under-load',
      '-i',
      '10.0.0.2',
      '-p',
      '11111',
      '-t',
      '2',
      '-m',
      '64',
      '--tcp',
      '--mps',
      '10000',
      '--reply-every',
      '100',
      '--full-log',
      '/tmp/x.csv',
    ]);
    // What is not an address never reaches argv (as -i's value or otherwise).
    for (const target of ['10.0.0.2; rm -rf /', '-f/etc/passwd'])
      expect(() => clientArgv({ ...underLoad, target }, 11111)).toThrow(/sockperf target .* is not an IP address or host name/);
  });

  it('a list of message rates is one trial each: a probe-interval sweep (--mps 100 is a message every 10 ms)', () => {
    const trials = sockperfTrials(sockperfSchema.parse({ mps: [100, 1000, 10_000], fullRtt: true, duration: 1 }));
    expect(trials.map((t) => [t.test, t.params['mps']])).toEqual([
      ['ping-pong', 100],
      ['ping-pong', 1000],
      ['ping-pong', 10_000],
    ]);
    expect(clientArgv({ ...trials[0]!, target: '10.0.0.2' }, 11111)).toContain('100');
    expect(sockperfSchema.safeParse({ mps: [] }).success).toBe(false);
  });
});
