import type { CustomSeriesRenderItemAPI, CustomSeriesRenderItemParams, CustomSeriesRenderItemReturn } from 'echarts';
import type { BarChart } from '@netbench/results';
import { formatNumber } from '../format-number.js';
import { seriesColor } from '../palette.js';
import { DEFAULT_HEIGHT, DEFAULT_WIDTH, frame, valueAxis, type Figure } from './base.js';


/**
 * Grouped bars (one per run) with confidence-interval whiskers. ECharts'
 * bar series has no error bars, so each run is a custom series that draws
 * its bar, whisker and caps itself at the grouped position.
 */
export function barOption(spec: BarChart): Figure {
  const categories = spec.x.categories;
  const seriesCount = spec.series.length;
  const width = Math.min(1600, Math.max(DEFAULT_WIDTH, categories.length * (seriesCount * 34 + 30) + 160));
  const band = (width - 160) / Math.max(1, categories.length);
  const rotate = band < 90 ? 30 : 0;
  const longest = Math.max(...categories.map((c) => c.length));
  const bottom = rotate ? Math.min(160, longest * 5 + 20) : 16;
  const { option } = frame(spec, spec.series.map((s) => s.name), width, { bottom });
  const showValues = categories.length * seriesCount <= 16;
  const group = 0.72;
  const nonNegative = spec.series.every((s) => s.bars.every((b) => b === null || b.mean >= 0));
  const series = spec.series.map((s, j) => ({
    type: 'custom' as const,
    name: s.name,
    color: seriesColor(j),
    encode: { x: 0, y: [1, 2, 3] },
    data: s.bars.flatMap((bar, i) => (bar ? [[i, bar.mean, bar.low ?? '-', bar.high ?? '-', bar.n]] : [])),
    renderItem: (_params: CustomSeriesRenderItemParams, api: CustomSeriesRenderItemAPI): CustomSeriesRenderItemReturn => {
      const index = Number(api.value(0));
      const mean = Number(api.value(1));
      const low = Number(api.value(2));
      const high = Number(api.value(3));
      const [center = 0, zero = 0] = api.coord([index, 0]);
      const slot = Math.min(((api.size!([1, 0]) as number[])[0]! * group) / seriesCount, 150);
      const x = center - (slot * seriesCount) / 2 + j * slot + (slot - Math.min(slot * 0.84, 120)) / 2;
      const barWidth = Math.min(slot * 0.84, 120);
      const [, top = 0] = api.coord([index, mean]);
      const mid = x + barWidth / 2;
      const children: unknown[] = [{
        type: 'rect',
        shape: { x, y: Math.min(top, zero), width: barWidth, height: Math.abs(zero - top) },
        style: { fill: seriesColor(j) },
      }];
      let labelY = top;
      if (Number.isFinite(low) && Number.isFinite(high)) {
        // A metric that cannot be negative: the interval is cut at 0, drawn without its lower cap.
        const clipped = nonNegative && low < 0;
        const [, yLow = 0] = api.coord([index, clipped ? 0 : low]);
        const [, yHigh = 0] = api.coord([index, high]);
        const cap = Math.min(10, barWidth * 0.4);
        const line = { stroke: '#222222', lineWidth: 1.5 };
        children.push(
          { type: 'line', shape: { x1: mid, y1: yLow, x2: mid, y2: yHigh }, style: line },
          { type: 'line', shape: { x1: mid - cap / 2, y1: yHigh, x2: mid + cap / 2, y2: yHigh }, style: line },
        );
        if (!clipped) children.push({ type: 'line', shape: { x1: mid - cap / 2, y1: yLow, x2: mid + cap / 2, y2: yLow }, style: line });
        labelY = Math.min(top, yHigh);
      }
      if (showValues) {
        children.push({ type: 'text', style: { text: formatNumber(mean), x: mid, y: labelY - 4, align: 'center', verticalAlign: 'bottom', fontSize: 11, fill: '#222222' } });
      }
      return { type: 'group', children } as CustomSeriesRenderItemReturn;
    },
  }));
  return {
    width,
    height: DEFAULT_HEIGHT + (rotate ? bottom : 0),
    option: {
      ...option,
      xAxis: {
        type: 'category',
        data: [...categories],
        name: spec.x.label,
        nameLocation: 'middle',
        nameTextStyle: { fontSize: 12, color: '#333333' },
        axisLabel: { interval: 0, rotate, fontSize: 11, color: '#333333', ...(rotate ? {} : { width: band - 8, overflow: 'break' }) },
        axisTick: { alignWithLabel: true },
      },
      yAxis: valueAxis(spec.y.label, spec.y.unit, 'linear', { boundaryGap: [0, '12%'], ...(nonNegative ? { min: 0 } : {}) }),
      series,
    },
  };
}
