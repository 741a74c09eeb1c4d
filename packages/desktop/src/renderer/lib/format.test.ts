import { formatNumber as shared, formatQuantity as sharedQuantity } from '@netbench/report/echarts';
import { describe, expect, it } from 'vitest';
import { formatDuration, formatNumber, formatQuantity } from './format';

describe('formatting in the app', () => {
  it("is the report's one unit module, not a copy", () => {
    expect(formatNumber).toBe(shared);
    expect(formatQuantity).toBe(sharedQuantity);
    expect(formatNumber(1234.5678)).toBe('1,235');
    expect(formatNumber(0.0012345)).toBe('0.00123');
    expect(formatQuantity(1.62e10, 'bytes')).toBe('16.2 GB');
  });

  it('formats durations', () => {
    expect([5_000, 65_000, 3_720_000].map(formatDuration)).toEqual(['5 s', '1 min 5 s', '1 h 2 min']);
  });
});
