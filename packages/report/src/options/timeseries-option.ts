import type { TimeSeriesChart } from '@netbench/results';
import { formatNumber } from '../format-number.js';
import { seriesColor } from '../palette.js';
import { DEFAULT_HEIGHT, DEFAULT_WIDTH, frame, valueAxis, type Figure } from './base.js';

/** Lines with a point per interval and a dashed line at each series' mean. */
export function timeSeriesOption(spec: TimeSeriesChart): Figure {
  const { option } = frame(spec, spec.series.map((s) => s.name), DEFAULT_WIDTH);
  const xs = spec.series.flatMap((s) => s.points.map((p) => p[0]));
  return {
    width: DEFAULT_WIDTH,
    height: DEFAULT_HEIGHT,
    option: {
      ...option,
      // The last interval ends a hair after the nominal duration (3.0008 s): end the axis there, label it 3.
      xAxis: valueAxis(spec.x.label, spec.x.unit, 'linear', {
        min: 0,
        max: Math.max(...xs),
        minInterval: Math.max(...spec.series.map((s) => s.points[0]?.[0] ?? 0), 0) >= 1 ? 1 : 0,
        axisLabel: { fontSize: 11, color: '#333333', hideOverlap: true, formatter: (v: number) => formatNumber(v) },
      }),
      yAxis: valueAxis(spec.y.label, spec.y.unit, 'linear'),
      series: spec.series.map((s, i) => ({
        type: 'line',
        name: s.name,
        color: seriesColor(i),
        data: s.points.map((p) => [p[0], p[1]]),
        showSymbol: true,
        symbolSize: 6,
        lineStyle: { width: 2 },
        markLine: { silent: true, symbol: 'none', label: { show: false }, lineStyle: { type: 'dashed', color: seriesColor(i), width: 1 }, data: [{ yAxis: s.mean }] },
      })),
    },
  };
}
