import { describe, expect, it } from 'vitest';
import { metricName } from './metric-names.js';
import { axisName, axisUnit, displayUnit, formatNumber, formatQuantities, formatQuantity, isRateUnit, unitInfo, unitSymbol } from './units.js';

describe('formatNumber', () => {
  it('gives three significant digits below 1,000 and whole numbers with separators above', () => {
    expect([0.0781234, 28.94, 140.2, 999.4, 1000, 67_312.6, 16_200_000_000, 0, -2.345].map(formatNumber)).toEqual([
      '0.0781',
      '28.9',
      '140',
      '999',
      '1,000',
      '67,313',
      '16,200,000,000',
      '0',
      '-2.35',
    ]);
  });
  it('groups whole numbers exactly as Intl does for en-US, from 1,000 to beyond 1e21 and below zero', () => {
    const en = new Intl.NumberFormat('en-US');
    const values = [1000, 9999.5, 123_456_789, -1000, -98_765.4, 2 ** 53, 1e21, 1.2345678901234567e25, -3.5e30, Number.MAX_VALUE];
    for (let i = 0; i < 2000; i += 1) values.push((Math.random() - 0.5) * 10 ** (3 + (i % 30)));
    for (const v of values.filter((x) => Math.abs(x) >= 1000)) expect(formatNumber(v), String(v)).toBe(en.format(Math.round(v)));
  });
  it('uses an exponent only for tiny values, and says what is not a number', () => {
    expect(formatNumber(0.00001234)).toBe('1.23e-5');
    expect([Number.NaN, Infinity].map(formatNumber)).toEqual(['NaN', 'Infinity']);
  });
});

describe('latency: µs, ms or s by magnitude', () => {
  it("chooses the step the value fills, from any of the tools' spellings", () => {
    expect(formatQuantity(117, 'us')).toBe('117 µs');
    expect(formatQuantity(2480, 'us')).toBe('2.48 ms');
    expect(formatQuantity(0.063, 'ms')).toBe('63 µs');
    expect(formatQuantity(1530, 'ms')).toBe('1.53 s');
    expect(formatQuantity(42, 'usec')).toBe('42 µs');
    expect(formatQuantity(0.5, 'us')).toBe('500 ns');
    expect(formatQuantity(3600, 's')).toBe('3,600 s');
  });
  it('rounds a hair below a step up into it instead of printing 1,000 µs', () => {
    expect(formatQuantity(999.96, 'us')).toBe('1 ms');
  });
  it('keeps the unit of zero', () => {
    expect(formatQuantity(0, 'us')).toBe('0 µs');
    expect(formatQuantity(0, 'ms')).toBe('0 ms');
  });
});

describe('throughput: bits per second, Mbit/s or Gbit/s', () => {
  it("scales PKB's Mbits/sec", () => {
    expect(formatQuantity(940.3, 'Mbits/sec')).toBe('940 Mbit/s');
    expect(formatQuantity(12_900, 'Mbits/sec')).toBe('12.9 Gbit/s');
    expect(formatQuantity(0.5, 'Mbits/sec')).toBe('500 kbit/s');
  });
  it('shows byte rates in bits', () => {
    expect(formatQuantity(125_000_000, 'bytes/sec')).toBe('1 Gbit/s');
    expect(unitInfo('bytes/sec')).toEqual({ dimension: 'bitrate', symbol: 'bit/s', toBase: 8 });
  });
});

describe('bytes: kB, MB, GB (decimal); GiB stays binary', () => {
  it('never prints 1.62e+10 bytes', () => {
    expect(formatQuantity(1.62e10, 'bytes')).toBe('16.2 GB');
    expect(formatQuantity(2_500_000, 'bytes')).toBe('2.5 MB');
    expect(formatQuantity(1500, 'bytes')).toBe('1.5 kB');
    expect(formatQuantity(64, 'bytes')).toBe('64 B');
    expect(formatQuantity(1536, 'MiB')).toBe('1.5 GiB');
  });
});

describe('rates, percentages and counts', () => {
  it('names rates tx/s, pkt/s, req/s, with thousands separators and no prefix', () => {
    expect(formatQuantity(67_300, 'transactions_per_second')).toBe('67,300 tx/s');
    expect(formatQuantity(1_234_567, 'packets_per_second')).toBe('1,234,567 pkt/s');
    expect(formatQuantity(812.4, 'requests_per_second')).toBe('812 req/s');
  });
  it('sticks % to the number and leaves counts bare', () => {
    expect(formatQuantity(0.5, 'percent')).toBe('0.5%');
    expect(formatQuantity(100, 'count')).toBe('100');
    expect(formatQuantity(3, '')).toBe('3');
  });
  it('shows unknown units as they are', () => {
    expect(formatQuantity(2, 'widgets')).toBe('2 widgets');
    expect(unitSymbol('transactions_per_second')).toBe('tx/s');
    expect(unitSymbol('us')).toBe('µs');
    expect(unitSymbol('bytes/sec')).toBe('bytes/sec');
  });
  it('knows which units are rates (their axes start at zero)', () => {
    expect(['Mbits/sec', 'transactions_per_second', 'pps', 'bytes/sec'].map(isRateUnit)).toEqual([true, true, true, true]);
    expect(['us', 'ms', 'percent', 'bytes', 'count'].map(isRateUnit)).toEqual([false, false, false, false, false]);
  });
});

describe('one unit per axis and per row', () => {
  it('chooses the axis unit by the largest value and formats ticks in it', () => {
    const axis = axisUnit('us', [25, 1470, 2480]);
    expect(axis.symbol).toBe('ms');
    expect([0, 500, 2500].map(axis.format)).toEqual(['0', '0.5', '2.5']);
    expect(axis.formatWithUnit(25)).toBe('0.025 ms');
    expect(axisName('latency', axis.symbol)).toBe('latency (ms)');
    expect(axisName('count', '')).toBe('count');
    expect(axisUnit('Mbits/sec', [5698, 10_214]).symbol).toBe('Gbit/s');
  });
  it('keeps the original step when there is nothing to measure the magnitude by', () => {
    expect(axisUnit('us', []).symbol).toBe('µs');
    expect(displayUnit('Mbits/sec', Number.NaN)).toEqual({ symbol: 'Mbit/s', factor: 1 });
  });
  it('puts p50/p90/p99 of a row in one unit', () => {
    expect(formatQuantities([26, 90, 2480], 'us')).toEqual({ symbol: 'ms', texts: ['0.026', '0.09', '2.48'] });
  });
});

describe('metric names', () => {
  it('reads PKB ids as words, keeping the test name, acronyms and percentiles', () => {
    expect(metricName('TCP_RR_Latency_p50')).toBe('TCP_RR latency p50');
    expect(metricName('TCP_RR_Transaction_Rate')).toBe('TCP_RR transaction rate');
    expect(metricName('TCP_STREAM_Throughput')).toBe('TCP_STREAM throughput');
    expect(metricName('TCP_RR_Local_CPU_Util')).toBe('TCP_RR local CPU utilisation');
    expect(metricName('UDP_RR_Latency_stddev')).toBe('UDP_RR latency std dev');
    expect(metricName('transactions_per_second')).toBe('Transactions per second');
    expect(metricName('Average Latency')).toBe('Average latency');
    expect(metricName('Latency p99.9')).toBe('Latency p99.9');
    expect(metricName('phase_duration')).toBe('Phase duration');
    expect(metricName('Interval Throughput')).toBe('Interval throughput');
  });
});
