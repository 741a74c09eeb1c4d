const SECONDS: Readonly<Record<string, number>> = { ns: 1e-9, us: 1e-6, µs: 1e-6, usec: 1e-6, ms: 1e-3, msec: 1e-3, s: 1, sec: 1, seconds: 1 };

/** Is `unit` a unit of time netbench knows? */
export function isTimeUnit(unit: string): boolean {
  return SECONDS[unit] !== undefined;
}

/**
 * Factor that turns a value in `from` into `to` (both time units), or
 * `undefined` when either is not a time unit. Histograms are recorded in
 * ns/us/ms while the sample that carries one may be in another unit.
 */
export function timeFactor(from: string, to: string): number | undefined {
  const f = SECONDS[from];
  const t = SECONDS[to];
  return f === undefined || t === undefined ? undefined : f / t;
}
