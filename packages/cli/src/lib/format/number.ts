/** A measurement with three significant digits and thousands separators: the one formatter of `@netbench/report/units`. */
export { formatNumber as formatValue } from '@netbench/report/units';

/** `1:05` / `1:02:03` from seconds. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${rest}` : `${m}:${rest}`;
}
