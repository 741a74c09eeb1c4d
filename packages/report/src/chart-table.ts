import type { ChartSpec } from '@netbench/results';
import { formatNumber } from './format-number.js';

export interface DataTable {
  readonly header: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

/**
 * A chart's numbers as a table, for Markdown (and anyone who cannot see the
 * picture): heatmap matrix, bars and sweep points with their intervals.
 * CDFs, histograms and time series have too many points; their figure and
 * JSON spec carry them.
 */
export function chartTable(chart: ChartSpec): DataTable | undefined {
  switch (chart.kind) {
    case 'heatmap': {
      const grid = chart.y.categories.map(() => chart.x.categories.map(() => ''));
      for (const cell of chart.cells) grid[cell.y]![cell.x] = formatNumber(cell.value);
      return { header: [`${chart.y.label} \\ ${chart.x.label} (${chart.value.unit})`, ...chart.x.categories], rows: chart.y.categories.map((row, i) => [row, ...grid[i]!]) };
    }
    case 'bar':
      return {
        header: ['configuration', ...chart.series.map((s) => `${s.name} (${chart.y.unit})`)],
        rows: chart.x.categories.map((category, i) => [category, ...chart.series.map((s) => interval(s.bars[i] ?? null))]),
      };
    case 'sweep': {
      const xs = [...new Set(chart.series.flatMap((s) => s.points.map((p) => p.x)))].sort((a, b) => a - b);
      return {
        header: [`${chart.param}${chart.x.unit ? ` (${chart.x.unit})` : ''}`, ...chart.series.map((s) => `${s.name} (${chart.y.unit})`)],
        rows: xs.map((x) => [formatNumber(x), ...chart.series.map((s) => interval(s.points.find((p) => p.x === x) ?? null))]),
      };
    }
    default:
      return undefined;
  }
}

function interval(point: { mean: number; low?: number; high?: number; n: number } | null): string {
  if (!point) return '';
  const ci = point.low !== undefined && point.high !== undefined ? ` [${formatNumber(point.low)}, ${formatNumber(point.high)}]` : '';
  return `${formatNumber(point.mean)}${ci} (n=${point.n})`;
}
