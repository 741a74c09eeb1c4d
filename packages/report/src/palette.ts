// Series colours: Paul Tol's "bright" and "muted" schemes, distinguishable
// with the common colour-vision deficiencies and readable on white.
export const SERIES_COLORS = ['#4477AA', '#EE6677', '#228833', '#CCBB44', '#66CCEE', '#AA3377', '#332288', '#117733', '#882255', '#44AA99', '#999933', '#BBBBBB'] as const;

export function seriesColor(index: number): string {
  return SERIES_COLORS[index % SERIES_COLORS.length]!;
}

// Sequential scale for heatmaps (viridis, light end first reversed so small = light):
// perceptually uniform, and still ordered in grey scale prints.
export const SEQUENTIAL = ['#fde725', '#b5de2b', '#6ece58', '#35b779', '#1f9e89', '#26828e', '#31688e', '#3e4989', '#482878', '#440154'] as const;

function rgb(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** Colour of a value at `t` in 0..1 along SEQUENTIAL, as ECharts' visualMap interpolates it. */
export function sequentialColor(t: number): string {
  const clamped = Math.min(1, Math.max(0, Number.isFinite(t) ? t : 0));
  const position = clamped * (SEQUENTIAL.length - 1);
  const i = Math.min(SEQUENTIAL.length - 2, Math.floor(position));
  const f = position - i;
  const a = rgb(SEQUENTIAL[i]!);
  const b = rgb(SEQUENTIAL[i + 1]!);
  const mix = a.map((c, k) => Math.round(c + (b[k]! - c) * f));
  return `#${mix.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}

/** Black or white text, whichever reads better on `hex` (WCAG relative luminance). */
export function textColorOn(hex: string): string {
  const [r, g, b] = rgb(hex).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return luminance > 0.22 ? '#111111' : '#ffffff';
}
