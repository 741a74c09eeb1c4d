import { describe, expect, it } from 'vitest';
import { parseDuration } from './parse-duration.js';

describe('parseDuration', () => {
  it('reads ms, s, m, h and d', () => {
    expect(parseDuration('250ms')).toBe(250);
    expect(parseDuration('90s')).toBe(90_000);
    expect(parseDuration('4h')).toBe(14_400_000);
    expect(parseDuration('1.5d')).toBe(129_600_000);
  });
  it('explains a bad value', () => {
    expect(() => parseDuration('4 hours')).toThrow(/use a number with ms, s, m, h or d/);
  });
});
