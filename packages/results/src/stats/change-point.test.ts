import { describe, expect, it } from 'vitest';
import { detectChange } from './change-point.js';
import { betterDirection } from './direction.js';

describe('change detection against the median and MAD of previous runs', () => {
  const history = [100, 102, 98, 101, 99, 103, 97, 100];

  it('flags a value far outside the recent spread, not one inside it', () => {
    expect(detectChange(history, 101)).toMatchObject({ changed: false, baseline: 100 });
    const jump = detectChange(history, 120)!;
    expect(jump.changed).toBe(true);
    expect(jump.deltaPct).toBeCloseTo(20, 5);
    expect(jump.z).toBeGreaterThan(3.5);
    expect(detectChange(history, 80)!.z).toBeLessThan(-3.5);
  });

  it('is not fooled by one outlier in the history', () => {
    expect(detectChange([...history, 500], 101)!.changed).toBe(false);
  });

  it('gives no verdict with too little history and looks only at the window', () => {
    expect(detectChange([100, 101, 99], 200)).toBeUndefined();
    expect(detectChange([1, 1, 1, 1, 1, 100, 101, 99, 100], 100, { window: 4 })!.changed).toBe(false);
  });

  it('keeps a floor on the scale so identical history does not flag tiny wiggles', () => {
    expect(detectChange([50, 50, 50, 50, 50], 50.01)!.changed).toBe(false);
    expect(detectChange([50, 50, 50, 50, 50], 52)!.changed).toBe(true);
  });
});

describe('which way is better', () => {
  it.each([
    ['TCP_RR_Latency_p50', 'us', 'lower'],
    ['Latency p99', 'ms', 'lower'],
    ['TCP_STREAM_Throughput', 'Mbits/sec', 'higher'],
    ['TCP_RR_Transaction_Rate', 'transactions_per_second', 'higher'],
    ['Packet Loss', 'percent', 'lower'],
    ['Retransmits', 'count', 'lower'],
    ['Client CPU Utilization', 'percent', 'lower'],
    ['Packets Sent', 'count', undefined],
  ])('%s (%s): %s', (metric, unit, expected) => {
    expect(betterDirection(metric, unit)).toBe(expected);
  });
});
