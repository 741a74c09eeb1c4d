/**
 * Numbers for people: thousands separators from 1,000 up, three significant
 * digits below (0.0781, 28.9, 140), no exponent notation for typical values.
 */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  if (abs >= 1000) return Math.round(value).toLocaleString('en-US');
  if (abs === 0) return '0';
  if (abs < 1e-4) return value.toExponential(2);
  return String(Number(value.toPrecision(3)));
}

/** `value unit`, or the value alone when there is no unit; `%` sticks to the number. */
export function withUnit(value: number, unit: string): string {
  if (!unit) return formatNumber(value);
  return unit === '%' ? `${formatNumber(value)}%` : `${formatNumber(value)} ${unit}`;
}

/** Axis name with its unit: `latency (us)`. */
export function axisName(label: string, unit: string): string {
  return unit ? `${label} (${unit})` : label;
}
