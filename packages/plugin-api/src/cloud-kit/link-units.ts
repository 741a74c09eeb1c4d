/**
 * Parsing of the `link` shaping values (the local lab's and Docker's). Values are validated here and turned
 * into plain numbers, so tc only ever receives numbers we formatted ourselves.
 */

/** `200mbit`, `1.5gbit`, `10MBps` (bytes), `100kibit`: tc's rate units. */
export const RATE_RE = /^(\d+(?:\.\d+)?)\s*(bit|kbit|mbit|gbit|tbit|kibit|mibit|gibit|tibit|bps|kbps|mbps|gbps|tbps|kibps|mibps|gibps|tibps)$/i;
/** `10ms`, `250us`, `0.5s`. */
export const DURATION_RE = /^(\d+(?:\.\d+)?)\s*(us|usec|ms|msec|s|sec)$/i;
/** `0.1%`. */
export const PERCENT_RE = /^(\d+(?:\.\d+)?)\s*%$/;

const RATE_FACTORS: Record<string, number> = {
  bit: 1, kbit: 1e3, mbit: 1e6, gbit: 1e9, tbit: 1e12,
  kibit: 1024, mibit: 1024 ** 2, gibit: 1024 ** 3, tibit: 1024 ** 4,
  // tc's `bps` is bytes per second.
  bps: 8, kbps: 8e3, mbps: 8e6, gbps: 8e9, tbps: 8e12,
  kibps: 8 * 1024, mibps: 8 * 1024 ** 2, gibps: 8 * 1024 ** 3, tibps: 8 * 1024 ** 4,
};

const DURATION_FACTORS: Record<string, number> = { us: 1, usec: 1, ms: 1e3, msec: 1e3, s: 1e6, sec: 1e6 };

/** Bits per second, or undefined when the text is not a rate. */
export function parseRate(text: string): number | undefined {
  const match = RATE_RE.exec(text.trim());
  if (!match) return undefined;
  const value = Number(match[1]) * (RATE_FACTORS[match[2]!.toLowerCase()] ?? Number.NaN);
  return Number.isFinite(value) && value >= 8 ? Math.round(value) : undefined;
}

/** Microseconds, or undefined when the text is not a duration. */
export function parseDuration(text: string): number | undefined {
  const match = DURATION_RE.exec(text.trim());
  if (!match) return undefined;
  const value = Number(match[1]) * (DURATION_FACTORS[match[2]!.toLowerCase()] ?? Number.NaN);
  return Number.isFinite(value) ? Math.round(value) : undefined;
}

/** Percentage 0..100, or undefined. */
export function parsePercent(text: string): number | undefined {
  const match = PERCENT_RE.exec(text.trim());
  if (!match) return undefined;
  const value = Number(match[1]);
  return value >= 0 && value <= 100 ? value : undefined;
}
