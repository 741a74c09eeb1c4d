import { describe, expect, it } from 'vitest';
import { formatNumber } from './format';

/** The formatting before the formatter was made once (a new one per call). */
function perCall(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  if (abs !== 0 && (abs < 0.001 || abs >= 1e9)) return value.toExponential(2);
  return Number(value.toPrecision(abs >= 1000 ? Math.max(4, Math.ceil(Math.log10(abs))) : 3)).toLocaleString('en-US');
}

describe('formatNumber', () => {
  it('formats as toLocaleString("en-US") did, with one formatter for all calls', () => {
    const values = [0, -0, 1, -1, 0.001, 0.0012345, 0.5, 0.12345, 1.005, 12.345, 999.5, 1000, 1234.5678, 9999.99, 65_432.1, 123_456_789, 999_999_999,
      -4321.5, 1e-4, 1e9, Number.NaN, Infinity, -Infinity];
    // And a spread of magnitudes, signs and digits.
    for (let i = 0; i < 2000; i++) values.push((i % 2 ? -1 : 1) * ((i * 7919) % 10007) * 10 ** ((i % 13) - 4) / 7);
    for (const v of values) expect(formatNumber(v), String(v)).toBe(perCall(v));
    expect(formatNumber(1234.5678)).toBe('1,235');
    expect(formatNumber(0.0012345)).toBe('0.001');
  });
});
