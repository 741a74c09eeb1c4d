import type { ChartSpec } from '@netbench/results';
import { echarts } from './echarts.js';
import { figureOf } from './figure.js';

export interface SvgOptions {
  /** Override the chart's computed size. */
  readonly width?: number;
  readonly height?: number;
}

/** A chart spec as a standalone SVG document, rendered by ECharts' server-side SVG renderer (no browser, no DOM). */
export function renderSvg(spec: ChartSpec, options: SvgOptions = {}): string {
  const figure = figureOf(spec);
  const width = options.width ?? figure.width;
  const height = options.height ?? figure.height;
  const chart = echarts().init(null, null, { renderer: 'svg', ssr: true, width, height });
  try {
    chart.setOption(figure.option);
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}
