import { describe, expect, it } from 'vitest';
import { formatDuration, formatValue } from './number.js';
import { formatTable } from './table.js';

describe('formatTable', () => {
  it('sizes columns to the widest cell, ignoring colour codes, and right-aligns numbers', () => {
    const text = formatTable(
      [
        { a: 'x', n: '5' },
        { a: '\x1b[31mlonger\x1b[0m', n: '1234' },
      ],
      [
        { header: 'name', value: (r) => r.a },
        { header: 'n', value: (r) => r.n, align: 'right' },
      ],
    );
    const lines = text.split('\n');
    expect(lines[0]).toBe('name       n');
    expect(lines[1]).toBe('──────  ────');
    expect(lines[2]).toBe('x          5');
    expect(lines[3]).toBe('\x1b[31mlonger\x1b[0m  1234');
  });
});

describe('number formatting', () => {
  it('keeps about four significant digits', () => {
    expect(formatValue(14555.4)).toBe('14,555');
    expect(formatValue(0.08812)).toBe('0.0881');
    expect(formatValue(54)).toBe('54');
    expect(formatValue(1.5)).toBe('1.5');
  });
  it('prints durations as m:ss or h:mm:ss', () => {
    expect(formatDuration(65)).toBe('1:05');
    expect(formatDuration(3723)).toBe('1:02:03');
  });
});
