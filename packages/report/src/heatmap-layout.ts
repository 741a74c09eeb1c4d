// How big a heatmap is drawn, and whether its cells can hold their value labels.
// A 20×20 zone matrix in a 340 px chart had 8 px rows: 400 labels (and the row
// names) drawn over each other. Big matrices now get a row height that holds a
// line of text and the full width of the chart grid; labels are drawn only when
// every cell can hold its text (the tooltip and the data table keep the values).

/** The plot's margins inside the chart (room for row names, rotated column names, the colour scale). */
export const HEATMAP_GRID = { left: 140, right: 90, top: 64, bottom: 110 } as const;

/** Cell labels' font size (px). */
export const HEATMAP_LABEL_FONT = 10;

const DEFAULT_HEIGHT = 340;
/** A row this tall holds a 10 px label and a 12 px row name. */
const ROW_PX = 22;
const MAX_HEIGHT = 900;
/** Width of one character of a 10 px label (digits, comma, point in the UI's sans-serif are ≤ 6 px), and the padding a cell keeps. */
const CHAR_PX = 6;
const PAD_PX = 4;

/** Height of a heatmap of `rows` rows: the usual 340 px, or enough for ~22 px rows (at most 900 px). */
export function heatmapHeight(rows: number): number {
  return Math.max(DEFAULT_HEIGHT, Math.min(MAX_HEIGHT, HEATMAP_GRID.top + HEATMAP_GRID.bottom + rows * ROW_PX));
}

/** More columns than this: the heatmap takes the chart grid's full width (in a half-width chart a column is ~18 px). */
export const WIDE_HEATMAP_COLUMNS = 6;

export interface ChartSize {
  readonly width: number;
  readonly height: number;
}

/**
 * Whether every cell of a `rows` × `columns` heatmap drawn at `size` can hold
 * the longest of `labels` on one line, with a little padding.
 */
export function heatmapLabelsFit(size: ChartSize, rows: number, columns: number, labels: readonly string[]): boolean {
  if (rows === 0 || columns === 0) return false;
  const cellWidth = (size.width - HEATMAP_GRID.left - HEATMAP_GRID.right) / columns;
  const cellHeight = (size.height - HEATMAP_GRID.top - HEATMAP_GRID.bottom) / rows;
  const longest = labels.reduce((n, l) => Math.max(n, l.length), 0);
  return cellHeight >= HEATMAP_LABEL_FONT + PAD_PX && cellWidth >= longest * CHAR_PX + PAD_PX;
}
