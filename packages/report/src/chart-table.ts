import type { ChartSpec } from '@netbench/results';
import { type AxisUnit, axisUnit, formatNumber, unitSymbol } from './units.js';

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
      const unit = axisUnit(chart.value.unit, [chart.value.min, chart.value.max]);
      const grid = chart.y.categories.map(() => chart.x.categories.map(() => ''));
      for (const cell of chart.cells) grid[cell.y]![cell.x] = unit.format(cell.value);
      return { header: [`${chart.y.label} \\ ${chart.x.label}${symbol(unit.symbol)}`, ...chart.x.categories], rows: chart.y.categories.map((row, i) => [row, ...grid[i]!]) };
    }
    case 'bar': {
      const unit = axisUnit(
        chart.y.unit,
        chart.series.flatMap((s) => s.bars.map((b) => b?.mean ?? 0)),
      );
      return {
        header: ['configuration', ...chart.series.map((s) => `${s.name}${symbol(unit.symbol)}`)],
        rows: chart.x.categories.map((category, i) => [category, ...chart.series.map((s) => interval(s.bars[i] ?? null, unit))]),
      };
    }
    case 'sweep': {
      const xs = [...new Set(chart.series.flatMap((s) => s.points.map((p) => p.x)))].sort((a, b) => a - b);
      const unit = axisUnit(
        chart.y.unit,
        chart.series.flatMap((s) => s.points.map((p) => p.mean)),
      );
      return {
        header: [`${chart.param}${symbol(unitSymbol(chart.x.unit))}`, ...chart.series.map((s) => `${s.name}${symbol(unit.symbol)}`)],
        rows: xs.map((x) => [formatNumber(x), ...chart.series.map((s) => interval(s.points.find((p) => p.x === x) ?? null, unit))]),
      };
    }
    default:
      return undefined;
  }
}

function interval(point: { mean: number; low?: number; high?: number; n: number } | null, unit: AxisUnit): string {
  if (!point) return '';
  const ci = point.low !== undefined && point.high !== undefined ? ` [${unit.format(point.low)}, ${unit.format(point.high)}]` : '';
  return `${unit.format(point.mean)}${ci} (n=${point.n})`;
}

const symbol = (s: string) => (s ? ` (${s})` : '');
