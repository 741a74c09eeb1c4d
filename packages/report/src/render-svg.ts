import type { ChartSpec } from '@netbench/results';
import { echarts } from './echarts.js';
import { figureOf } from './figure.js';
import type { RenderOptions } from './render-options.js';

export interface SvgOptions extends Pick<RenderOptions, 'footer' | 'cdfView' | 'barScale'> {
  /** Override the chart's computed size. */
  readonly width?: number;
  readonly height?: number;
}

/** A chart spec as a standalone SVG document, rendered by ECharts' server-side SVG renderer (no browser, no DOM). */
export function renderSvg(spec: ChartSpec, options: SvgOptions = {}): string {
  const { width: w, height: h, ...render } = options;
  const figure = figureOf(spec, render);
  const width = w ?? figure.width;
  const height = h ?? figure.height;
  const chart = echarts().init(null, null, { renderer: 'svg', ssr: true, width, height });
  try {
    chart.setOption(figure.option);
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}

/** An SVG as a `data:` URL, for a Markdown file that carries its pictures inside. */
export function svgDataUrl(svg: string): string {
  return `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`;
}
