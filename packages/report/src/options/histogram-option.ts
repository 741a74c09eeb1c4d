import type { HistogramChart } from '@netbench/results';
import { formatNumber } from '../format-number.js';
import { seriesColor } from '../palette.js';
import { DEFAULT_HEIGHT, DEFAULT_WIDTH, frame, valueAxis, type Figure } from './base.js';

/** Bins as bars on a category axis of bin starts; the legend says how much lies beyond the last bin. */
export function histogramOption(spec: HistogramChart): Figure {
  const last = spec.edges.at(-1) ?? 0;
  const names = spec.series.map((s) => (s.overflow > 0 ? `${s.name} (${formatNumber(s.overflow)}% above ${formatNumber(last)} ${spec.x.unit})` : s.name));
  const { option } = frame(spec, names, DEFAULT_WIDTH);
  const categories = spec.edges.slice(0, -1).map((e) => formatNumber(e));
  return {
    width: DEFAULT_WIDTH,
    height: DEFAULT_HEIGHT,
    option: {
      ...option,
      xAxis: {
        type: 'category',
        data: categories,
        name: `${spec.x.label} (${spec.x.unit}), bin start`,
        nameLocation: 'middle',
        nameTextStyle: { fontSize: 12, color: '#333333' },
        axisLabel: { fontSize: 11, color: '#333333', hideOverlap: true },
        axisTick: { alignWithLabel: false },
      },
      yAxis: valueAxis(spec.y.label, spec.y.unit, 'linear'),
      series: spec.series.map((s, i) => ({
        type: 'bar',
        name: names[i],
        color: seriesColor(i),
        data: s.percents.map((p) => Number(p.toFixed(4))),
        barGap: '0%',
        barCategoryGap: '12%',
      })),
    },
  };
}
