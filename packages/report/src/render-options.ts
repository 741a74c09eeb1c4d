import type { ChartSize } from './heatmap-layout.js';

/** Colours of text, grid and background: the report and the app's light theme share LIGHT. */
export interface ChartTheme {
  readonly background: string;
  readonly title: string;
  readonly text: string;
  readonly muted: string;
  readonly grid: string;
  readonly axisLine: string;
}

export const LIGHT_THEME: ChartTheme = { background: '#ffffff', title: '#111111', text: '#222222', muted: '#555555', grid: '#e6e6e6', axisLine: '#888888' };
export const DARK_THEME: ChartTheme = { background: 'transparent', title: '#f0f2f4', text: '#e6e8eb', muted: '#a8b0ba', grid: '#333a44', axisLine: '#6b7480' };

/** How a chart spec is drawn. Every field is optional: the defaults draw the static report figure. */
export interface RenderOptions {
  readonly theme?: ChartTheme;
  /** Tooltips, zoom and a scrolling legend (the desktop app). Default false. */
  readonly interactive?: boolean;
  /** The drawn size in CSS px when the page decides it (the app); default: the figure chooses its own. */
  readonly size?: ChartSize;
  /** CDF charts: the CDF (default) or its log tail, 1 − CDF on a log axis. */
  readonly cdfView?: 'cdf' | 'tail';
  /**
   * Bar charts' value axis: `auto` (default) is log when the largest bar is more
   * than LOG_RATIO times the smallest, so small bars stay visible.
   */
  readonly barScale?: 'auto' | 'linear' | 'log';
  /** A line at the bottom (run id and date on exported files). */
  readonly footer?: string;
}

/** Bars more different than this (largest / smallest) get a log axis by default. */
export const LOG_RATIO = 20;

export interface RenderContext {
  readonly theme: ChartTheme;
  readonly interactive: boolean;
  readonly size?: ChartSize;
  readonly cdfView: 'cdf' | 'tail';
  readonly barScale: 'auto' | 'linear' | 'log';
  readonly footer?: string;
}

export function renderContext(options: RenderOptions = {}): RenderContext {
  return {
    theme: options.theme ?? LIGHT_THEME,
    interactive: options.interactive ?? false,
    cdfView: options.cdfView ?? 'cdf',
    barScale: options.barScale ?? 'auto',
    ...(options.size ? { size: options.size } : {}),
    ...(options.footer ? { footer: options.footer } : {}),
  };
}
