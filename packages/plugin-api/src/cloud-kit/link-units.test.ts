import { expect, test } from 'vitest';
import { formatBits, parseRate, rateProblem } from './link-units.js';

test('rates in bits, with or without /s, and bytes spelled out', () => {
  expect(parseRate('200mbit')).toBe(200e6);
  expect(parseRate('100Mbit/s')).toBe(100e6);
  expect(parseRate('1.5Gbit/s')).toBe(1.5e9);
  expect(parseRate('500 kbit')).toBe(500e3);
  expect(parseRate('1kibit')).toBe(1024);
  expect(parseRate('10MByte/s')).toBe(80e6);
  expect(parseRate('10 MBytes/s')).toBe(80e6);
  expect(parseRate('1GiByte/s')).toBe(8 * 1024 ** 3);
  expect(parseRate('0bit')).toBeUndefined();
});

test("tc's byte units and other two-way readings are refused, saying both readings and what to write", () => {
  for (const text of ['100Mbps', '100mbps', '100MBps', '100Mb/s', '100MB', '100M']) expect(parseRate(text)).toBeUndefined();
  expect(rateProblem('100Mbps')).toBe(
    "'100Mbps' is ambiguous: tc reads it as bytes per second (800 Mbit/s), most people mean bits (100 Mbit/s); write 100mbit for bits or 100MByte/s for bytes per second",
  );
  expect(rateProblem('1gbps')).toMatch(/\(8 Gbit\/s\).*\(1 Gbit\/s\); write 1gbit for bits or 1GByte\/s/);
  expect(rateProblem('200')).toBe('expected a rate in bits (200mbit, 1gbit, 500kbit, 100Mbit/s) or bytes spelled out (10MByte/s)');
  expect(rateProblem('200 furlongs')).toMatch(/^expected a rate in bits/);
  expect(rateProblem('200mbit')).toBeUndefined();
});

test('formatBits picks the unit by magnitude', () => {
  expect(formatBits(800e6)).toBe('800 Mbit/s');
  expect(formatBits(1.5e9)).toBe('1.5 Gbit/s');
  expect(formatBits(64e3)).toBe('64 kbit/s');
  expect(formatBits(8)).toBe('8 bit/s');
});
