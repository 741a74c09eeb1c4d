import { isTimeUnit } from './units.js';

/** Which way is better for a metric. */
export type Direction = 'lower' | 'higher';

const RATE_UNIT_RE = /(?:per_second|per_sec|\/s|\/sec)$/i;
const WORSE_WHEN_HIGH_RE = /latency|rtt|jitter|loss|retrans|error|drop|dup|fail|cpu/i;
const BETTER_WHEN_HIGH_RE = /throughput|bandwidth|goodput|transaction_rate/i;

/**
 * Whether lower or higher values are better, from the unit and the metric's
 * name: times are better lower; losses, retransmits, errors, jitter and CPU
 * lower; rates (`Mbits/sec`, `transactions_per_second`) and throughput
 * higher. `undefined` when neither says (e.g. `Packets Sent`): the caller
 * must be told (`--direction`).
 */
export function betterDirection(metric: string, unit: string): Direction | undefined {
  if (isTimeUnit(unit) || WORSE_WHEN_HIGH_RE.test(metric)) return 'lower';
  if (RATE_UNIT_RE.test(unit) || BETTER_WHEN_HIGH_RE.test(metric)) return 'higher';
  return undefined;
}
