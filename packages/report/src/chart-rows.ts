import type { ChartSpec } from '@netbench/results';
import { unitSymbol } from './units.js';

/**
 * The numbers a chart shows, as table rows (header first), unrounded in the
 * spec's unit: for the app's accessible data table and for tests.
 */
export function chartRows(spec: ChartSpec): string[][] {
  switch (spec.kind) {
    case 'heatmap': return [[spec.y.label, spec.x.label, withUnit(spec.value.label, spec.value.unit), 'n'], ...spec.cells.map((c) => [spec.y.categories[c.y]!, spec.x.categories[c.x]!, String(c.value), String(c.n)])];
    case 'bar': return [['series', spec.x.label, withUnit('mean', spec.y.unit), 'low', 'high', 'n'], ...spec.series.flatMap((s) => s.bars.flatMap((b, i) => (b ? [[s.name, spec.x.categories[i]!, String(b.mean), String(b.low ?? ''), String(b.high ?? ''), String(b.n)]] : [])))];
    case 'cdf': return [['series', ...['p50', 'p90', 'p99', 'p99.9', 'max'].map((p) => withUnit(p, spec.x.unit)), 'count'], ...spec.series.map((s) => [s.name, ...[s.percentiles.p50, s.percentiles.p90, s.percentiles.p99, s.percentiles.p999, s.percentiles.max].map(String), String(s.count)])];
    case 'histogram': return [['series', withUnit('bin from', spec.x.unit), withUnit('bin to', spec.x.unit), '%'], ...spec.series.flatMap((s) => s.percents.map((p, i) => [s.name, String(spec.edges[i]), String(spec.edges[i + 1]), String(p)]))];
    case 'timeseries': {
      // With a second axis (load tests: throughput and RTT) a value's unit depends on its series: one column each.
      const y2 = spec.y2;
      if (!y2) return [['series', withUnit(spec.x.label, spec.x.unit), withUnit(spec.y.label, spec.y.unit)], ...spec.series.flatMap((s) => s.points.map((p) => [s.name, String(p[0]), String(p[1])]))];
      return [['series', withUnit(spec.x.label, spec.x.unit), withUnit(spec.y.label, spec.y.unit), withUnit(y2.label, y2.unit)],
        ...spec.series.flatMap((s) => s.points.map((p) => (s.axis === 2 ? [s.name, String(p[0]), '', String(p[1])] : [s.name, String(p[0]), String(p[1]), ''])))];
    }
    case 'sweep': return [['series', withUnit(spec.param, spec.x.unit), withUnit('mean', spec.y.unit), 'low', 'high', 'n'], ...spec.series.flatMap((s) => s.points.map((p) => [s.name, String(p.x), String(p.mean), String(p.low ?? ''), String(p.high ?? ''), String(p.n)]))];
    case 'box': return [[spec.x.label, withUnit('min', spec.y.unit), 'q1', 'median', 'q3', 'max', 'n'], ...spec.series.flatMap((s) => s.boxes.flatMap((b, i) => (b ? [[spec.x.categories[i]!, String(b.min), String(b.q1), String(b.median), String(b.q3), String(b.max), String(b.n)]] : [])))];
  }
}

function withUnit(label: string, unit: string): string {
  const symbol = unitSymbol(unit);
  return symbol ? `${label} (${symbol})` : label;
}
