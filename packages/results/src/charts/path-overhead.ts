import type { Scalar } from '@netbench/plugin-api';
import { PLAIN } from '../paths/trial-path.js';
import type { Bar } from './types.js';

type Config = ReadonlyMap<string, Scalar>;

/** A configuration without its `tunnel`: the plain path and each tunnel of one measurement share it. */
function restKey(config: Config): string {
  return JSON.stringify([...config].filter(([key]) => key !== 'tunnel'));
}

/**
 * Configurations in reading order for a tunnel comparison: those equal but
 * for `tunnel` stay together (in first-seen order), the plain path first,
 * then the tunnels by name. Without tunnel labels the order is unchanged.
 * Why: with `order: random` first-seen order differs from chart to chart.
 */
export function plainPathFirst<T>(items: readonly T[], configOf: (item: T) => Config): T[] {
  if (!items.some((item) => configOf(item).has('tunnel'))) return [...items];
  const groups = new Map<string, number>();
  for (const item of items) {
    const key = restKey(configOf(item));
    if (!groups.has(key)) groups.set(key, groups.size);
  }
  const tunnel = (item: T) => String(configOf(item).get('tunnel') ?? '');
  return [...items].sort(
    (x, y) =>
      groups.get(restKey(configOf(x)))! - groups.get(restKey(configOf(y)))! || Number(tunnel(y) === PLAIN) - Number(tunnel(x) === PLAIN) || tunnel(x).localeCompare(tunnel(y)),
  );
}

/**
 * Each tunnel's mean beside the plain path's of the same configuration, as
 * a ratio (`ipsec 0.05×`: a twentieth of the plain path's throughput;
 * `wg 5.9×`: nearly six times its latency). Undefined when no tunnel has a
 * plain path to compare with. `bars[i]` belongs to `configs[i]`.
 */
export function pathRatios(configs: readonly Config[], bars: readonly (Bar | null)[]): string | undefined {
  const plain = new Map<string, number>();
  configs.forEach((config, i) => {
    const bar = bars[i];
    if (config.get('tunnel') === PLAIN && bar && bar.mean !== 0) plain.set(restKey(config), bar.mean);
  });
  const parts: string[] = [];
  configs.forEach((config, i) => {
    const tunnel = config.get('tunnel');
    const base = plain.get(restKey(config));
    const bar = bars[i];
    if (tunnel === undefined || tunnel === PLAIN || base === undefined || !bar) return;
    parts.push(`${String(tunnel)} ${String(Number((bar.mean / base).toPrecision(2)))}×`);
  });
  return parts.length ? parts.join(', ') : undefined;
}

/** The chart notes for `pathRatios` of one or more series (`['p50 ipsec 5.9×, …', …]`): one note, or none. */
export function pathOverheadNote(ratios: readonly (string | undefined)[]): string[] {
  const given = ratios.filter((r): r is string => r !== undefined);
  return given.length ? [`Through each tunnel, mean ÷ the plain path's mean (tunnel=none, same configuration otherwise): ${given.join('; ')}.`] : [];
}
