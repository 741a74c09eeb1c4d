import type { ChartSpec } from '@netbench/results';
import { axisUnit, formatNumber, unitSymbol } from './units.js';

/** A table column: its label, the unit of its numbers (`null`: text; `''`: a plain count), and whether the raw header leaves the unit to the column before it. */
type Column = readonly [label: string, unit: string | null, bare?: boolean];
type Cell = string | number | undefined;

/** Header, units and rows of a chart's numbers (unformatted). */
function table(spec: ChartSpec): { columns: readonly Column[]; rows: readonly (readonly Cell[])[] } {
  switch (spec.kind) {
    case 'heatmap':
      return {
        columns: [
          [spec.y.label, null],
          [spec.x.label, null],
          [spec.value.label, spec.value.unit],
          ['n', ''],
        ],
        rows: spec.cells.map((c) => [spec.y.categories[c.y]!, spec.x.categories[c.x]!, c.value, c.n]),
      };
    case 'bar':
      return {
        columns: [
          ['series', null],
          [spec.x.label, null],
          ['mean', spec.y.unit],
          ['low', spec.y.unit, true],
          ['high', spec.y.unit, true],
          ['n', ''],
        ],
        rows: spec.series.flatMap((s) => s.bars.flatMap((b, i) => (b ? [[s.name, spec.x.categories[i]!, b.mean, b.low, b.high, b.n]] : []))),
      };
    case 'cdf':
      return {
        columns: [['series', null], ...['p50', 'p90', 'p99', 'p99.9', 'max'].map((p): Column => [p, spec.x.unit]), ['count', '']],
        rows: spec.series.map((s) => [s.name, s.percentiles.p50, s.percentiles.p90, s.percentiles.p99, s.percentiles.p999, s.percentiles.max, s.count]),
      };
    case 'histogram':
      return {
        columns: [
          ['series', null],
          ['bin from', spec.x.unit],
          ['bin to', spec.x.unit],
          ['%', ''],
        ],
        rows: spec.series.flatMap((s) => s.percents.map((p, i) => [s.name, spec.edges[i], spec.edges[i + 1], p])),
      };
    case 'timeseries': {
      // With a second axis (load tests: throughput and RTT) a value's unit depends on its series: one column each.
      const y2 = spec.y2;
      if (!y2)
        return {
          columns: [
            ['series', null],
            [spec.x.label, spec.x.unit],
            [spec.y.label, spec.y.unit],
          ],
          rows: spec.series.flatMap((s) => s.points.map((p) => [s.name, p[0], p[1]])),
        };
      return {
        columns: [
          ['series', null],
          [spec.x.label, spec.x.unit],
          [spec.y.label, spec.y.unit],
          [y2.label, y2.unit],
        ],
        rows: spec.series.flatMap((s) => s.points.map((p) => (s.axis === 2 ? [s.name, p[0], undefined, p[1]] : [s.name, p[0], p[1], undefined]))),
      };
    }
    case 'sweep':
      return {
        columns: [
          ['series', null],
          [spec.param, spec.x.unit],
          ['mean', spec.y.unit],
          ['low', spec.y.unit, true],
          ['high', spec.y.unit, true],
          ['n', ''],
        ],
        rows: spec.series.flatMap((s) => s.points.map((p) => [s.name, p.x, p.mean, p.low, p.high, p.n])),
      };
    case 'trend':
      return {
        columns: [
          ['series', null],
          ['run', null],
          ['started', null],
          [spec.y.label, spec.y.unit],
          ['n', ''],
          ['flag', null],
        ],
        rows: spec.series.flatMap((s) => s.points.map((p) => [s.name, p.runId, new Date(p.at).toISOString(), p.value, p.n, p.flag ?? ''])),
      };
    case 'box':
      return {
        columns: [[spec.x.label, null], ...['min', 'q1', 'median', 'q3', 'max'].map((p, i): Column => [p, spec.y.unit, i > 0]), ['n', '']],
        rows: spec.series.flatMap((s) => s.boxes.flatMap((b, i) => (b ? [[spec.x.categories[i]!, b.min, b.q1, b.median, b.q3, b.max, b.n]] : []))),
      };
  }
}

/**
 * The numbers a chart shows, as table rows (header first). By default
 * unrounded in the spec's unit (for tests and anyone parsing them);
 * `formatted`: each column in the unit its largest value fills, named in the
 * header (`round-trip time (µs)`), numbers to three significant digits with
 * thousands separators — the app's data table, for people.
 */
export function chartRows(spec: ChartSpec, options: { readonly formatted?: boolean } = {}): string[][] {
  const { columns, rows } = table(spec);
  if (!options.formatted) {
    return [columns.map(([label, unit, bare]) => (unit && !bare ? withUnit(label, unit) : label)), ...rows.map((r) => r.map((c) => (c === undefined ? '' : String(c))))];
  }
  const units = columns.map(([, unit], i) => (unit ? axisUnit(unit, rows.map((r) => Number(r[i])).filter(Number.isFinite)) : undefined));
  return [
    columns.map(([label, unit], i) => (unit ? `${label}${units[i]!.symbol ? ` (${units[i]!.symbol})` : ''}` : label)),
    ...rows.map((r) => r.map((c, i) => (c === undefined ? '' : typeof c === 'string' ? c : units[i] ? units[i]!.format(c) : formatNumber(c)))),
  ];
}

function withUnit(label: string, unit: string): string {
  const symbol = unitSymbol(unit);
  return symbol ? `${label} (${symbol})` : label;
}
