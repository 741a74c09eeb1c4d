/**
 * Parsing of the `link` shaping values (the local lab's and Docker's). Values are validated here and turned
 * into plain numbers, so tc only ever receives numbers we formatted ourselves.
 */

/**
 * Rates in units nobody can misread: bits (`200mbit`, `1.5gbit`, `100kibit`,
 * `100Mbit/s`, `1Gbit/s`) or bytes spelled out (`10MByte/s`, `1GiByte/s`).
 * tc's `mbps` means megabytes per second, which most people read as megabits:
 * `bps`-style units are refused (see `rateProblem`), never guessed.
 */
export const RATE_RE =
  /^(\d+(?:\.\d+)?)\s*(bit|kbit|mbit|gbit|tbit|kibit|mibit|gibit|tibit|bit\/s|kbit\/s|mbit\/s|gbit\/s|tbit\/s|kibit\/s|mibit\/s|gibit\/s|tibit\/s|bytes?\/s|kbytes?\/s|mbytes?\/s|gbytes?\/s|tbytes?\/s|kibytes?\/s|mibytes?\/s|gibytes?\/s|tibytes?\/s)$/i;
/** Rates whose unit reads both ways: tc's `mbps` (bytes), `Mb/s`, `MB`, `M`… */
const AMBIGUOUS_RATE_RE = /^(\d+(?:\.\d+)?)\s*(k|m|g|t|ki|mi|gi|ti)?(bps|b\/s|b|ps)?$/i;
/** `10ms`, `250us`, `0.5s`. */
export const DURATION_RE = /^(\d+(?:\.\d+)?)\s*(us|usec|ms|msec|s|sec)$/i;
/** `0.1%`. */
export const PERCENT_RE = /^(\d+(?:\.\d+)?)\s*%$/;

const RATE_FACTORS: Record<string, number> = {
  bit: 1,
  kbit: 1e3,
  mbit: 1e6,
  gbit: 1e9,
  tbit: 1e12,
  kibit: 1024,
  mibit: 1024 ** 2,
  gibit: 1024 ** 3,
  tibit: 1024 ** 4,
  byte: 8,
  kbyte: 8e3,
  mbyte: 8e6,
  gbyte: 8e9,
  tbyte: 8e12,
  kibyte: 8 * 1024,
  mibyte: 8 * 1024 ** 2,
  gibyte: 8 * 1024 ** 3,
  tibyte: 8 * 1024 ** 4,
};

const PREFIX_FACTORS: Record<string, number> = { '': 1, k: 1e3, m: 1e6, g: 1e9, t: 1e12, ki: 1024, mi: 1024 ** 2, gi: 1024 ** 3, ti: 1024 ** 4 };

/** `Mbit/s` → `mbit`, `MBytes/s` → `mbyte`: the factor's key. */
function unitKey(unit: string): string {
  return unit
    .toLowerCase()
    .replace(/\/s$/, '')
    .replace(/bytes$/, 'byte');
}

const DURATION_FACTORS: Record<string, number> = { us: 1, usec: 1, ms: 1e3, msec: 1e3, s: 1e6, sec: 1e6 };

/** Bits per second, or undefined when the text is not a rate. */
export function parseRate(text: string): number | undefined {
  const match = RATE_RE.exec(text.trim());
  if (!match) return undefined;
  const value = Number(match[1]) * (RATE_FACTORS[unitKey(match[2]!)] ?? Number.NaN);
  return Number.isFinite(value) && value >= 8 ? Math.round(value) : undefined;
}

/**
 * Why `text` is not a rate, saying what to write instead; undefined when it
 * is one. An ambiguous unit (`100Mbps`: tc reads megabytes per second, i.e.
 * 800 Mbit/s) names both readings.
 */
export function rateProblem(text: string): string | undefined {
  if (parseRate(text) !== undefined) return undefined;
  const ambiguous = AMBIGUOUS_RATE_RE.exec(text.trim());
  if (ambiguous && (ambiguous[2] !== undefined || ambiguous[3] !== undefined)) {
    const number = ambiguous[1]!;
    const prefix = (ambiguous[2] ?? '').toLowerCase();
    const factor = PREFIX_FACTORS[prefix] ?? 1;
    const bits = `${number}${prefix}bit`;
    const bytes = `${number}${prefix === '' ? '' : prefix[0]!.toUpperCase() + prefix.slice(1)}Byte/s`;
    return `'${text}' is ambiguous: tc reads it as bytes per second (${formatBits(Number(number) * factor * 8)}), most people mean bits (${formatBits(Number(number) * factor)}); write ${bits} for bits or ${bytes} for bytes per second`;
  }
  return 'expected a rate in bits (200mbit, 1gbit, 500kbit, 100Mbit/s) or bytes spelled out (10MByte/s)';
}

/** `800000000` → `800 Mbit/s`: bits per second as a reader expects them. */
export function formatBits(bitsPerSecond: number): string {
  const steps: [number, string][] = [
    [1e12, 'Tbit/s'],
    [1e9, 'Gbit/s'],
    [1e6, 'Mbit/s'],
    [1e3, 'kbit/s'],
  ];
  for (const [factor, unit] of steps) {
    if (bitsPerSecond >= factor) return `${Number((bitsPerSecond / factor).toPrecision(4))} ${unit}`;
  }
  return `${Number(bitsPerSecond.toPrecision(4))} bit/s`;
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
