import type { CdfChart } from '@netbench/results';
import { formatNumber } from '../format-number.js';
import { seriesColor } from '../palette.js';
import { DEFAULT_HEIGHT, DEFAULT_WIDTH, frame, valueAxis, type Figure } from './base.js';

/** One line per series with dashed guides at p50, p90 and p99; the legend carries each series' p50/p99. */
export function cdfOption(spec: CdfChart): Figure {
  const names = spec.series.map((s) => `${s.name} (p50 ${formatNumber(s.percentiles.p50)}, p99 ${formatNumber(s.percentiles.p99)} ${spec.x.unit})`);
  const { option } = frame(spec, names, DEFAULT_WIDTH);
  const guides = [50, 90, 99].map((p) => ({ yAxis: p, label: { formatter: `p${p}`, position: 'insideEndTop' as const, fontSize: 10, color: '#666666' } }));
  return {
    width: DEFAULT_WIDTH,
    height: DEFAULT_HEIGHT,
    option: {
      ...option,
      xAxis: valueAxis(spec.x.label, spec.x.unit, spec.x.scale, { scale: true }),
      yAxis: valueAxis(spec.y.label, spec.y.unit, 'linear', { min: 0, max: 100, interval: 10 }),
      series: spec.series.map((s, i) => ({
        type: 'line',
        name: names[i],
        color: seriesColor(i),
        data: s.points.map((p) => [p[0], p[1]]),
        step: 'end',
        showSymbol: false,
        lineStyle: { width: 2 },
        ...(i === 0 ? { markLine: { silent: true, symbol: 'none', lineStyle: { type: 'dashed', color: '#aaaaaa', width: 1 }, data: guides } } : {}),
      })),
    },
  };
}
