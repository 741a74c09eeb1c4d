import { readFileSync } from 'node:fs';
import { LatencyHistogram } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import { httpSamples, percentileHistogram } from './http-samples.js';
import plugin from './index.js';
import { parseAb, parseAbPercentilesCsv } from './parse-ab.js';
import { parseOha } from './parse-oha.js';
import { parseWrk } from './parse-wrk.js';
import { sniffHttp, whichGenerator } from './sniff.js';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
const value = (samples: ReturnType<typeof httpSamples>, metric: string, labels: Record<string, unknown> = {}) =>
  samples.find(
    (s) => s.metric === metric && Object.entries(labels).every(([k, v]) => s.labels?.[k] === v) && (labels.error_kind !== undefined || s.labels?.error_kind === undefined),
  )?.value;

describe('ab', () => {
  it('reads the report: rate of successes, percentiles, connection times, transfer', () => {
    const result = parseAb(fixture('ab-keepalive-1k.txt'), 'ab.txt');
    expect(result).toMatchObject({ generator: 'ab', generatorVersion: '2.3', requests: 2000, successes: 2000, seconds: 0.224, connections: 10 });
    expect(result.percentiles).toContainEqual([50, 0]);
    expect(result.percentiles).toContainEqual([100, 88]);
    const samples = httpSamples(result);
    expect(value(samples, 'HTTP_Request_Rate')).toBeCloseTo(2000 / 0.224, 3);
    expect(value(samples, 'HTTP_Transfer_Rate')).toBeCloseTo((11033.42 * 1024 * 8) / 1e6, 6);
    expect(value(samples, 'HTTP_Processing_Time', { stat: 'max' })).toBe(88);
    expect(value(samples, 'HTTP_Keep_Alive_Requests')).toBe(2000);
  });

  it('counts non-2xx responses as errors, never as successes', () => {
    const result = parseAb(fixture('ab-non2xx.txt'), 'ab.txt');
    expect(result.requests).toBe(200);
    expect(result.successes).toBe(0);
    expect(result.errors.status).toBe(200);
    const samples = httpSamples(result);
    expect(value(samples, 'HTTP_Request_Rate')).toBe(0);
    expect(value(samples, 'HTTP_Errors')).toBe(200);
    expect(value(samples, 'HTTP_Errors', { error_kind: 'status' })).toBe(200);
    // ab's own figure counts the 404s; it is kept under its own name.
    expect(value(samples, 'ab_Requests_Per_Second_All_Statuses')).toBe(505.57);
  });

  it('names why ab gave up when it printed no report', () => {
    expect(() => parseAb(fixture('error-ab-refused.txt'), 'ab.txt')).toThrow(/ab\.txt.*Connection refused \(111\)/);
    expect(() => parseAb(fixture('error-ab-timeout.txt'), 'ab.txt')).toThrow(/timeout specified has expired/);
  });

  it('reads -e CSV percentiles to the microsecond', () => {
    const rows = parseAbPercentilesCsv('Percentage served,Time in ms\n0,0.101\n50,0.250\n99,1.5\n');
    expect(rows).toEqual([
      [0, 0.101],
      [50, 0.25],
      [99, 1.5],
    ]);
    expect(() => parseAbPercentilesCsv('x,y\n', 'a.csv')).toThrow(/a\.csv:1/);
  });
});

describe('wrk', () => {
  it('reads the report with --latency: units converted to ms and bytes', () => {
    const result = parseWrk(fixture('wrk-latency.txt'), 'wrk.txt');
    expect(result).toMatchObject({ requests: 19000, successes: 19000, seconds: 2.03, connections: 10 });
    expect(result.latency).toEqual({ mean: 9.06, stdev: 16.42, max: 105.5 });
    expect(result.percentiles).toEqual([
      [50, 0.378],
      [75, 11.05],
      [90, 32.01],
      [99, 73.49],
    ]);
    expect(result.transferBytesPerSecond).toBeCloseTo(11.31 * 1024 ** 2, 3);
  });

  it('counts "Non-2xx or 3xx responses" as errors', () => {
    const samples = httpSamples(parseWrk(fixture('wrk-non2xx.txt'), 'wrk.txt'));
    expect(value(samples, 'HTTP_Requests')).toBe(14834);
    expect(value(samples, 'HTTP_Successes')).toBe(0);
    expect(value(samples, 'HTTP_Request_Rate')).toBe(0);
    expect(value(samples, 'HTTP_Errors', { error_kind: 'status' })).toBe(14834);
  });

  it('reads socket errors by kind; timed-out requests are not successes', () => {
    // Captured against a server that drops every other connection's second request and answers the others' 2.5 s late (wrk --timeout 1s).
    const result = parseWrk(fixture('wrk-socket-errors.txt'), 'wrk.txt');
    expect(result.errors).toMatchObject({ connect: 0, read: 6, write: 0, timeout: 2, status: 0 });
    expect(result).toMatchObject({ requests: 10, successes: 8 });
    const samples = httpSamples(result);
    expect(value(samples, 'HTTP_Errors')).toBe(8);
    expect(value(samples, 'HTTP_Errors', { error_kind: 'read' })).toBe(6);
  });

  it('reads a run in which nothing was answered as zero requests', () => {
    expect(parseWrk(fixture('wrk-timeouts.txt'), 'wrk.txt')).toMatchObject({ requests: 0, successes: 0 });
  });

  it('fails with the connect error when wrk could not connect', () => {
    expect(() => parseWrk(fixture('error-wrk-refused.txt'), 'wrk.txt')).toThrow(/wrk\.txt.*Connection refused/);
  });
});

describe('oha', () => {
  const json = (status: Record<string, number>, errors: Record<string, number> = {}) =>
    JSON.stringify({
      summary: { successRate: 1, total: 2, slowest: 0.01, fastest: 0.0001, average: 0.001, requestsPerSec: 100, totalData: 1000, sizePerRequest: 10, sizePerSec: 500 },
      latencyPercentiles: { p10: 0.0002, p50: 0.0005, p99: 0.004, 'p99.9': 0.008, 'p99.99': 0.0099 },
      statusCodeDistribution: status,
      errorDistribution: errors,
    });

  it('counts 2xx as successes, other statuses and errors by kind', () => {
    const result = parseOha(json({ '200': 150, '404': 50 }, { 'connection refused': 3, 'request timed out': 2 }));
    expect(result).toMatchObject({ requests: 200, successes: 150, seconds: 2, errors: { status: 50, connect: 3, timeout: 2 } });
    expect(result.percentiles.at(-1)).toEqual([99.99, 9.9]);
    const samples = httpSamples({ ...result, offeredRate: 100 });
    expect(value(samples, 'HTTP_Request_Rate')).toBe(75);
    expect(value(samples, 'HTTP_Offered_Rate')).toBe(100);
    expect(value(samples, 'HTTP_Latency_p99_99')).toBeCloseTo(9.9, 9);
  });

  it('does not count requests cut when the duration ran out (oha without -w) as errors', () => {
    expect(parseOha(json({ '200': 10 }, { 'aborted due to deadline': 3 })).errors).toEqual({ status: 0 });
  });

  it('reads the captured runs: constant rate, 404s, refused', () => {
    expect(parseOha(fixture('oha-rate-300.json'))).toMatchObject({ successes: 598, errors: { status: 0 } });
    expect(parseOha(fixture('oha-non2xx.json')).successes).toBe(0);
    expect(parseOha(fixture('oha-refused.json'))).toMatchObject({ requests: 0, errors: { connect: 50 } });
  });

  it('rejects JSON that is not oha output', () => {
    expect(() => parseOha('{"a":1}', 'x.json')).toThrow(/x\.json/);
  });
});

describe('the latency histogram from percentiles', () => {
  it('reads the listed percentiles back and holds every request', () => {
    const result = parseWrk(fixture('wrk-latency.txt'));
    const encoded = percentileHistogram(result)!;
    expect(encoded.count).toBe(19000);
    const histogram = LatencyHistogram.decode(encoded);
    expect(histogram.percentile(50) / 1000).toBeCloseTo(0.378, 2);
    expect(histogram.percentile(99) / 1000).toBeCloseTo(73.49, 0);
    expect(histogram.max / 1000).toBeCloseTo(105.5, 0);
  });
});

describe('sniff and import', () => {
  it('tells ab, wrk and oha apart and refuses other tools', () => {
    expect(whichGenerator(fixture('ab-non2xx.txt'))).toBe('ab');
    expect(whichGenerator(fixture('wrk-latency.txt'))).toBe('wrk');
    expect(whichGenerator('{"summary":{"successRate":1},"statusCodeDistribution":{}}')).toBe('oha');
    expect(sniffHttp('PING 10.0.0.1 (10.0.0.1) 56(84) bytes of data.')).toBe(false);
    expect(sniffHttp('{"start":{"version":"iperf 3.12"}}')).toBe(false);
  });

  it('parse labels the test with the generator, as trials name it', () => {
    const samples = plugin.parse(fixture('wrk-latency.txt'), { source: 'wrk.txt' });
    expect(samples.every((s) => s.labels?.test === 'wrk')).toBe(true);
  });
});
