// One unit discipline for every number netbench shows: chart axes and
// tooltips, report tables, the CLI's summary and the desktop app's tables.
// Samples keep their tools' unit strings (PKB's `Mbits/sec`, `us`,
// `transactions_per_second`); this module turns (value, unit) into text a
// network engineer reads at a glance: µs, ms or s by magnitude, Mbit/s or
// Gbit/s, kB/MB/GB, tx/s, pkt/s, req/s. Pure, no Node built-ins: the desktop
// renderer imports it too.

/** What a unit measures. Values of one dimension convert into each other. */
export type Dimension = 'time' | 'bitrate' | 'bytes' | 'binary-bytes' | 'rate' | 'percent' | 'count' | 'other';

export interface UnitInfo {
  readonly dimension: Dimension;
  /** The unit as shown (`µs`, `Mbit/s`, `tx/s`, `%`; empty for plain counts). */
  readonly symbol: string;
  /** One of this unit in the dimension's base (seconds, bit/s, bytes); 1 where there is no ladder. */
  readonly toBase: number;
}

type Ladder = readonly (readonly [symbol: string, size: number])[];

// Steps of each scalable dimension, smallest first: a value is shown in the largest step it fills.
const LADDERS: Partial<Record<Dimension, Ladder>> = {
  time: [
    ['ns', 1e-9],
    ['µs', 1e-6],
    ['ms', 1e-3],
    ['s', 1],
  ],
  bitrate: [
    ['bit/s', 1],
    ['kbit/s', 1e3],
    ['Mbit/s', 1e6],
    ['Gbit/s', 1e9],
    ['Tbit/s', 1e12],
  ],
  bytes: [
    ['B', 1],
    ['kB', 1e3],
    ['MB', 1e6],
    ['GB', 1e9],
    ['TB', 1e12],
  ],
  'binary-bytes': [
    ['B', 1],
    ['KiB', 1024],
    ['MiB', 1024 ** 2],
    ['GiB', 1024 ** 3],
    ['TiB', 1024 ** 4],
  ],
};

// Unit strings the tools and PKB write, lower-cased, to what they are.
const ALIASES: Readonly<Record<string, UnitInfo>> = (() => {
  const table: Record<string, UnitInfo> = {};
  const add = (dimension: Dimension, symbol: string, toBase: number, names: readonly string[]) => {
    for (const name of [symbol, ...names]) table[name.toLowerCase()] = { dimension, symbol, toBase };
  };
  add('time', 'ns', 1e-9, ['nsec', 'nanoseconds']);
  add('time', 'µs', 1e-6, ['us', 'μs', 'usec', 'usecs', 'microseconds']);
  add('time', 'ms', 1e-3, ['msec', 'msecs', 'milliseconds']);
  add('time', 's', 1, ['sec', 'secs', 'seconds', 'second']);
  add('bitrate', 'bit/s', 1, ['bits/sec', 'bps', 'bits/s', 'bits_per_second']);
  add('bitrate', 'kbit/s', 1e3, ['kbits/sec', 'kbps', 'kbits/s', 'kbit']);
  add('bitrate', 'Mbit/s', 1e6, ['mbits/sec', 'mbps', 'mbits/s', 'mbit', 'megabits_per_second']);
  add('bitrate', 'Gbit/s', 1e9, ['gbits/sec', 'gbps', 'gbits/s', 'gbit']);
  // Byte rates are shown in bits (network convention): one byte/s is 8 bit/s.
  add('bitrate', 'bit/s', 8, ['bytes/sec', 'b/s', 'bytes/s', 'bytes_per_second']);
  add('bitrate', 'bit/s', 8e3, ['kb/s', 'kbytes/sec']);
  add('bitrate', 'bit/s', 8e6, ['mb/s', 'mbytes/sec']);
  add('bytes', 'B', 1, ['bytes', 'byte']);
  add('bytes', 'kB', 1e3, ['kbytes']);
  add('bytes', 'MB', 1e6, ['mbytes']);
  add('bytes', 'GB', 1e9, ['gbytes']);
  add('bytes', 'TB', 1e12, []);
  add('binary-bytes', 'KiB', 1024, []);
  add('binary-bytes', 'MiB', 1024 ** 2, []);
  add('binary-bytes', 'GiB', 1024 ** 3, []);
  add('rate', 'tx/s', 1, ['transactions_per_second', 'trans/s', 'tran/s', 'transactions/sec', 'tps']);
  add('rate', 'pkt/s', 1, ['packets_per_second', 'pps', 'packets/sec', 'packets/s']);
  add('rate', 'req/s', 1, ['requests_per_second', 'requests/sec', 'requests/s', 'rps']);
  add('percent', '%', 1, ['percent', 'pct']);
  add('count', '', 1, ['count', 'counts', 'number']);
  return table;
})();

/** What `unit` measures and how it is written for people (unknown units are shown as they are). */
export function unitInfo(unit: string): UnitInfo {
  return ALIASES[unit.trim().toLowerCase()] ?? { dimension: 'other', symbol: unit.trim(), toBase: 1 };
}

/** The unit as people read it, without changing the scale: `transactions_per_second` → `tx/s`, `us` → `µs`. */
export function unitSymbol(unit: string): string {
  const info = unitInfo(unit);
  // A byte rate keeps its own name until it is scaled (to bits) by displayUnit.
  return ladderSize(info) === info.toBase ? info.symbol : unit.trim();
}

function ladderSize(info: UnitInfo): number {
  return LADDERS[info.dimension]?.find(([symbol]) => symbol === info.symbol)?.[1] ?? info.toBase;
}

/** Whether larger values mean more traffic per second (throughput, transaction or packet rates): axes start at zero. */
export function isRateUnit(unit: string): boolean {
  const { dimension } = unitInfo(unit);
  return dimension === 'bitrate' || dimension === 'rate';
}

/** The unit values of about `magnitude` (in `unit`) are shown in, and the factor that takes them there. */
export interface DisplayUnit {
  readonly symbol: string;
  /** Multiply a value in the original unit by this to get it in `symbol`. */
  readonly factor: number;
}

/**
 * The step of the unit's ladder that a value of `magnitude` fills (117 µs,
 * 2.48 ms, 12.9 Gbit/s, 16.2 GB); units without a ladder keep their symbol.
 * Zero, infinities and NaN keep the unit's own step.
 */
export function displayUnit(unit: string, magnitude: number): DisplayUnit {
  const info = unitInfo(unit);
  const ladder = LADDERS[info.dimension];
  if (!ladder) return { symbol: info.symbol, factor: 1 };
  const abs = Math.abs(magnitude) * info.toBase;
  let step = ladder.find(([, size]) => size === info.toBase) ?? ladder[0]!;
  if (Number.isFinite(abs) && abs > 0) {
    step = ladder[0]!;
    // A hair below a step (999.96 µs rounds to 1,000 µs) counts as filling it.
    for (const candidate of ladder) if (abs >= candidate[1] * 0.9995) step = candidate;
  }
  return { symbol: step[0], factor: info.toBase / step[1] };
}

/**
 * A whole number's digits grouped by thousands as en-US writes them (67,300;
 * -1,250,000), without `Intl`: the first `Intl.NumberFormat` of a process
 * sets up ICU (~18 ms), which every `netbench run` paid at start-up.
 * From 1e21 up, JavaScript prints an exponent; its digits are written out.
 */
function groupThousands(integer: number): string {
  let digits = String(Math.abs(integer));
  const exponent = /^(\d)(?:\.(\d+))?e\+(\d+)$/.exec(digits);
  if (exponent) digits = `${exponent[1]}${exponent[2] ?? ''}`.padEnd(Number(exponent[3]) + 1, '0');
  return `${integer < 0 ? '-' : ''}${digits.replace(/\B(?=(\d{3})+$)/g, ',')}`;
}

/**
 * A number for people: three significant digits (0.0781, 28.9, 140), whole
 * numbers with thousands separators from 1,000 up (67,300), exponent
 * notation only below 0.0001.
 */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  if (abs >= 1000) return groupThousands(Math.round(value));
  if (abs === 0) return '0';
  if (abs < 1e-4) return value.toExponential(2);
  return String(Number(value.toPrecision(3)));
}

/** `value unit` in a unit chosen by the value's magnitude: `117 µs`, `2.48 ms`, `12.9 Gbit/s`, `67,300 tx/s`, `0.5%`. */
export function formatQuantity(value: number, unit: string): string {
  const { symbol, factor } = displayUnit(unit, value);
  return joinUnit(formatNumber(value * factor), symbol);
}

/** Several values of one unit (a table row, p50/p90/p99) in the one step their largest value fills. */
export function formatQuantities(values: readonly number[], unit: string): { readonly symbol: string; readonly texts: readonly string[] } {
  const { symbol, factor } = displayUnit(unit, maxAbs(values));
  return { symbol, texts: values.map((v) => formatNumber(v * factor)) };
}

/** A number and its symbol: `%` sticks to the number, an empty symbol is left out. */
export function joinUnit(number: string, symbol: string): string {
  if (!symbol) return number;
  return symbol === '%' ? `${number}%` : `${number} ${symbol}`;
}

/** The largest finite absolute value (0 when there is none). */
export function maxAbs(values: Iterable<number>): number {
  let max = 0;
  for (const v of values) if (Number.isFinite(v) && Math.abs(v) > max) max = Math.abs(v);
  return max;
}

/** One unit for an axis (and its tooltips) chosen by the largest value drawn on it. */
export interface AxisUnit extends DisplayUnit {
  /** A tick or tooltip value (in the original unit) as text in the axis's unit, without the symbol. */
  format(value: number): string;
  /** Same, with the symbol: for tooltips. */
  formatWithUnit(value: number): string;
}

export function axisUnit(unit: string, values: Iterable<number>): AxisUnit {
  const display = displayUnit(unit, maxAbs(values));
  return {
    ...display,
    format: (value) => formatNumber(value * display.factor),
    formatWithUnit: (value) => joinUnit(formatNumber(value * display.factor), display.symbol),
  };
}

/** Axis name with its unit: `latency (ms)`. */
export function axisName(label: string, symbol: string): string {
  return symbol ? `${label} (${symbol})` : label;
}

// Metric names belong with units: both say what a number is.
export { metricName } from './metric-names.js';
