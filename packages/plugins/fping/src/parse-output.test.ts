import { readFileSync } from 'node:fs';
import type { SampleInput } from '@netbench/plugin-api';
import { LatencyHistogram, ParseError } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import { fpingSamples } from './fping-samples.js';
import { parseFpingOutput } from './parse-output.js';
import { fpingPlugin } from './plugin.js';
import { sniffFping } from './sniff.js';

// Real fping 5.1 outputs (stdout then stderr) captured by ../scripts/capture-fixtures.sh between namespaces; COMMANDS.txt lists each.
const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
const parse = (name: string) => parseFpingOutput(fixture(name), name);
const value = (samples: readonly SampleInput[], metric: string, destination = '10.213.64.2') => {
  const found = samples.filter((s) => s.metric === metric && s.labels?.destination === destination);
  expect(found, `${metric} ${destination}`).toHaveLength(1);
  return found[0]!.value;
};
const thrown = (raw: string): Error => {
  try {
    parseFpingOutput(raw, 'f.txt');
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
};

describe('parseFpingOutput', () => {
  it('-C 10: every round trip from the vector, in order; percentiles from the histogram', () => {
    const output = parse('vector.txt');
    const [target] = output.targets;
    expect(target).toMatchObject({ target: '10.213.64.2', sent: 10, received: 10, lossPercent: 0, packetBytes: 64 });
    expect(target!.rttsMs).toEqual([0.078, 0.072, 0.068, 0.063, 0.073, 0.071, 0.069, 0.076, 0.076, 0.076]);
    const samples = fpingSamples(output);
    expect(value(samples, 'Min Latency')).toBe(0.063);
    expect(value(samples, 'Max Latency')).toBe(0.078);
    expect(value(samples, 'Latency p50')).toBe(0.072);
    const average = samples.find((s) => s.metric === 'Average Latency')!;
    expect(average.value).toBeCloseTo(0.0722, 10);
    expect(LatencyHistogram.decode(average.histogram!).count).toBe(10);
    expect(average.labels).toMatchObject({ destination: '10.213.64.2', size: 56, per_packet_rtts: true });
  });

  it('-q -C: the vector alone still gives every round trip', () => {
    expect(parse('vector-quiet.txt').targets[0]!.rttsMs).toHaveLength(10);
  });

  it("-c 10: per-packet lines and fping's min/avg/max summary", () => {
    const [target] = parse('count.txt').targets;
    expect(target).toMatchObject({ sent: 10, received: 10, summary: { min: 0.069, avg: 0.093, max: 0.135 } });
    expect(target!.rttsMs).toHaveLength(10);
  });

  it('-q -c: no per-packet round trips, so min/avg/max and counts only', () => {
    const samples = fpingSamples(parse('count-quiet.txt'));
    expect(value(samples, 'Average Latency')).toBe(0.073);
    expect(samples.some((s) => s.metric.startsWith('Latency p'))).toBe(false);
    expect(samples[0]!.labels).toMatchObject({ per_packet_rtts: false });
  });

  it('loss: a target that never answers (-c and -C)', () => {
    for (const name of ['count-loss.txt', 'vector-loss.txt']) {
      const samples = fpingSamples(parse(name));
      expect(value(samples, 'Packet Loss', '10.213.64.99'), name).toBe(100);
      expect(value(samples, 'Packets Sent', '10.213.64.99'), name).toBe(8);
      expect(value(samples, 'Packet Loss'), name).toBe(0);
    }
  });

  it('ICMP errors count against their target', () => {
    const samples = fpingSamples(parse('icmp-errors.txt'));
    expect(value(samples, 'Packet Errors', '10.213.65.1')).toBe(2);
    expect(value(samples, 'Packet Loss', '10.213.66.1')).toBe(100);
  });

  it('-D: samples are dated by the last reply', () => {
    const samples = fpingSamples(parse('timestamps.txt'));
    expect(samples[0]!.timestamp).toBe(Math.round(1795347979.65658 * 1000));
  });

  it('several targets, and -b sizes', () => {
    expect(parse('multi-target.txt').targets.map((t) => t.target)).toEqual(['10.213.64.2', '10.213.64.1', '127.0.0.1']);
    expect(fpingSamples(parse('size-timeout.txt'))[0]!.labels).toMatchObject({ size: 1000 });
  });

  it('per-packet lines alone (stdout without the summary) still count sent and received', () => {
    const stdout = fixture('count-loss.txt').split('\n\n')[0]!;
    const targets = parseFpingOutput(stdout).targets;
    expect(targets.find((t) => t.target === '10.213.64.99')).toMatchObject({ sent: 8, received: 0, lossPercent: 100 });
    expect(targets.find((t) => t.target === '10.213.64.2')).toMatchObject({ sent: 8, received: 8 });
  });
});

describe('fping errors', () => {
  it('"is alive" mode has no round trips: a clear error naming the line', () => {
    expect(thrown(fixture('alive.txt')).message).toBe('f.txt:1: fping ran without -c or -C (only "is alive"/"is unreachable"): no round trips to import; run fping -C N or -c N');
  });

  it("an unknown line is named with its number; fping's own diagnostics are reported", () => {
    const broken = fixture('count.txt').replace('[3], 64 bytes, 0.076 ms', '[3], 64 bytes, 0.0.76 ms');
    expect(thrown(broken).message).toMatch(/^f\.txt:4: unrecognised line "10\.213\.64\.2 : \[3\]/);
    expect(thrown("fping: can't create socket (must run as root?)\n").message).toBe("f.txt:1: fping failed: fping: can't create socket (must run as root?)");
    expect(thrown('').message).toBe('f.txt: empty output');
    for (const variant of [fixture('vector.txt').replace(/\d/g, 'x'), fixture('count.txt').split('').reverse().join('')]) {
      expect(thrown(variant)).toBeInstanceOf(ParseError);
    }
  });
});

describe('fping output cut off', () => {
  it('is refused, not read as fewer requests: a missing summary, a shortened -C vector', () => {
    expect(parseFpingOutput(fixture('vector-two-loopback.txt')).targets.map((t) => t.sent)).toEqual([4, 4]);
    expect(thrown(fixture('vector-two-loopback-cut-summary.txt')).message).toBe(
      'f.txt:10: no summary line for 127.0.0.2 while the other targets have one: the output stops early (truncated?)',
    );
    expect(thrown(fixture('vector-two-loopback-cut-vector.txt')).message).toBe(
      'f.txt:11: the -C round trips of 127.0.0.2 stop after 2 of 4 requests: the output is cut off (truncated?)',
    );
  });
});

describe('sniffFping and the plugin parse()', () => {
  it('recognises every fping fixture and nothing else', () => {
    for (const name of ['count.txt', 'count-quiet.txt', 'vector.txt', 'vector-quiet.txt', 'timestamps.txt', 'alive.txt', 'icmp-errors.txt'])
      expect(sniffFping(fixture(name)), name).toBe(true);
    expect(sniffFping('PING 10.0.0.2 (10.0.0.2) 56(84) bytes of data.\n')).toBe(false);
    expect(sniffFping('THROUGHPUT=123\n')).toBe(false);
    expect(sniffFping('[  1] local 10.0.0.1 port 1 connected with 10.0.0.2 port 5001\n')).toBe(false);
  });

  it('labels samples test: icmp', () => {
    expect(fpingPlugin().parse(fixture('vector.txt'))[0]!.labels).toMatchObject({ test: 'icmp' });
  });
});
