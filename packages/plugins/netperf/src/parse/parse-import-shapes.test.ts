import { readFileSync } from 'node:fs';
import { LatencyHistogram } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import { parseNetperf } from './parse.js';
import { parseNetperfOutput } from './parse-netperf.js';

// Shapes `netbench import` promised but refused: the -O human
// table with multi-line headings, a CSV with no THROUGHPUT column, a CSV
// header wrapped over lines followed by the printed histogram (PKB's logs),
// and a values line with one more field than its header.
const dir = new URL('../__fixtures__/', import.meta.url);
const fixture = (name: string) => readFileSync(new URL(name, dir), 'utf8');
const metrics = (name: string) => Object.fromEntries(parseNetperf(fixture(name), { source: name }).map((s) => [s.metric, s.value]));

describe('-O human-readable output: multi-line column headings', () => {
  it('reads the "What a trip" study table (wrapped banner, headings over three lines)', () => {
    const result = parseNetperfOutput(fixture('handmade-what-a-trip-tcp_rr.txt'));
    expect(result).toMatchObject({ test: 'TCP_RR', format: 'omni-human', throughput: 99.995 });
    expect(result.latency).toMatchObject({ min: 74, mean: 94.01, max: 1576, stddev: 64.3 });
  });

  it('reads real -O output of Debian netperf, with and without a confidence banner', () => {
    expect(metrics('loopback-omni-human-tcp_rr.txt')).toMatchObject({
      TCP_RR_Transaction_Rate: 10393.524,
      TCP_RR_Latency_min: 17,
      TCP_RR_Latency_mean: 96.15,
      TCP_RR_Latency_max: 156830,
      TCP_RR_Latency_stddev: 2242.9,
    });
    const confident = parseNetperfOutput(fixture('loopback-confidence-omni-human-tcp_rr.txt'));
    expect(confident).toMatchObject({ format: 'omni-human', throughput: 13433.536, confidence: { level: 99, targetWidthPercent: 5 } });
    expect(confident.latency).toMatchObject({ min: 16, mean: 83.6, max: 74602, stddev: 569.69 });
  });

  it('reads a bulk test: the units column and a heading split as "Elapsed / Time / (sec)"', () => {
    const result = parseNetperfOutput(fixture('loopback-omni-human-tcp_stream.txt'));
    expect(result).toMatchObject({ test: 'TCP_STREAM', format: 'omni-human', throughput: 2167.07, rawThroughputUnits: '10^6bits/s', elapsedSeconds: 1 });
  });
});

describe('a transaction-rate CSV without a Throughput column', () => {
  it('takes the transaction rate as the result, named by the banner test', () => {
    const samples = parseNetperf(fixture('loopback-omni-csv-rate-only-tcp_rr.txt'));
    expect(samples.every((s) => s.labels?.test === 'TCP_RR')).toBe(true);
    expect(Object.fromEntries(samples.map((s) => [s.metric, s.value]))).toMatchObject({
      TCP_RR_Transaction_Rate: 12598.568,
      TCP_RR_Latency_p99: 2014,
      TCP_RR_Latency_min: 17,
      TCP_RR_Latency_mean: 79.3,
    });
    expect(metrics('loopback-confidence-omni-csv-rate-only-tcp_rr.txt')).toMatchObject({ TCP_RR_Transaction_Rate: 11363.637, TCP_RR_Latency_max: 30083 });
  });

  it('a bulk test still needs its throughput', () => {
    const text = 'MIGRATED TCP STREAM TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to 127.0.0.1 () port 0 AF_INET : demo\nElapsed Time (sec),Transaction Rate Tran/s\n1.00,5\n';
    expect(() => parseNetperfOutput(text, { source: 's.txt' })).toThrow(/s\.txt:3: no numeric throughput/);
  });
});

describe("PKB's archived output: wrapped banner and CSV header, then the printed histogram", () => {
  it('joins the header lines, keeps the confidence of the wrapped banner, and turns the counts into a histogram sample', () => {
    const result = parseNetperfOutput(fixture('handmade-pkb-wrapped-histogram-tcp_rr.txt'));
    expect(result).toMatchObject({
      test: 'TCP_RR',
      format: 'omni-csv',
      throughput: 1405.5,
      confidence: { level: 99, targetWidthPercent: 5, widthPercent: 2.522, iterations: 4, achieved: true },
    });
    expect(result.latency).toMatchObject({ stddev: 783.8, p50: 683, p90: 735, p99: 841, min: 600, max: 900 });
    const samples = parseNetperf(fixture('handmade-pkb-wrapped-histogram-tcp_rr.txt'));
    const histogram = samples.find((s) => s.metric === 'TCP_RR_Latency_Histogram');
    expect(histogram?.histogram).toBeDefined();
    const decoded = LatencyHistogram.decode(histogram!.histogram!);
    expect(decoded.count).toBe(444658);
    expect(decoded.percentile(50)).toBeGreaterThanOrEqual(100);
    expect(decoded.percentile(50)).toBeLessThan(200);
  });
});

describe('a values line with one more field than its header (confidence banner)', () => {
  it("drops the blank value of a heading-less selector where the units column lines up (netperf's print_omni_csv)", () => {
    const result = parseNetperfOutput(fixture('handmade-headingless-selector-tcp_rr.txt'));
    expect(result).toMatchObject({
      test: 'TCP_RR',
      throughput: 1333.62,
      rawThroughputUnits: 'Trans/s',
      confidence: { level: 99, widthPercent: 15.88, iterations: 20, achieved: false },
    });
  });

  it('still refuses a values line that cannot be lined up', () => {
    const text =
      'MIGRATED TCP REQUEST/RESPONSE TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to 127.0.0.1 () port 0 AF_INET : first burst 0\nThroughput,Throughput Units\n1,Trans/s,7,8\n';
    expect(() => parseNetperfOutput(text, { source: 'x.txt' })).toThrow(/no netperf result found/);
  });
});
