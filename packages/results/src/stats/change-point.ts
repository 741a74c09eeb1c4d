import { mad, median } from './quantile.js';

export interface ChangeOptions {
  /** Previous points the newest is judged against (default 10). */
  readonly window?: number;
  /** Fewer previous points than this: no verdict (default 4). */
  readonly minHistory?: number;
  /** Robust z beyond which a point is a change (default 3.5, Iglewicz & Hoaglin). */
  readonly threshold?: number;
}

export interface ChangeVerdict {
  /** Median of the previous points. */
  readonly baseline: number;
  /** Median absolute deviation of the previous points (unscaled). */
  readonly mad: number;
  /** (value − baseline) / (1.4826 · MAD), with a floor on the scale. */
  readonly z: number;
  /** (value − baseline) / |baseline| · 100. */
  readonly deltaPct: number;
  readonly changed: boolean;
  readonly history: number;
}

export const CHANGE_DEFAULTS = { window: 10, minHistory: 4, threshold: 3.5 } as const;
/** 1.4826 · MAD estimates σ for normal data. */
const MAD_TO_SIGMA = 1.4826;
/** Scale floor, relative to the baseline: identical history must not make every wiggle a change. */
const RELATIVE_FLOOR = 0.001;

/**
 * Is `value` a change against the previous points? The robust z-score of
 * the value against the median and MAD of the last `window` points: the
 * median ignores the outliers a mean would follow, and MAD is the spread
 * that outliers do not inflate. |z| > threshold is a change.
 */
export function detectChange(history: readonly number[], value: number, options: ChangeOptions = {}): ChangeVerdict | undefined {
  const window = options.window ?? CHANGE_DEFAULTS.window;
  const recent = history.slice(-window);
  if (recent.length < (options.minHistory ?? CHANGE_DEFAULTS.minHistory)) return undefined;
  const baseline = median(recent);
  const spread = mad(recent, baseline);
  const scale = Math.max(MAD_TO_SIGMA * spread, RELATIVE_FLOOR * Math.abs(baseline), Number.MIN_VALUE);
  const z = (value - baseline) / scale;
  const deltaPct = baseline === 0 ? (value === 0 ? 0 : Number.POSITIVE_INFINITY * Math.sign(value)) : ((value - baseline) / Math.abs(baseline)) * 100;
  return { baseline, mad: spread, z, deltaPct, changed: Math.abs(z) > (options.threshold ?? CHANGE_DEFAULTS.threshold), history: recent.length };
}
