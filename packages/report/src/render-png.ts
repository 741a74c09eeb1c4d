import { createRequire } from 'node:module';
import type { ChartSpec } from '@netbench/results';
import { FONT_FAMILY } from './options/base.js';
import { renderSvg, type SvgOptions } from './render-svg.js';

export interface PngOptions extends SvgOptions {
  /** Pixel density: 2 gives a sharp picture on high-DPI screens. Default 2. */
  readonly scale?: number;
}

/**
 * A chart spec as a PNG: the SVG rasterised by resvg (Rust, no browser).
 * Text uses the system's fonts (DejaVu Sans on Debian); a machine without
 * any font draws charts without text.
 */
export function renderPng(spec: ChartSpec, options: PngOptions = {}): Buffer {
  const svg = renderSvg(spec, options);
  // The native addon is loaded on first use: HTML and SVG reports never need it.
  resvgModule ??= createRequire(import.meta.url)('@resvg/resvg-js') as typeof import('@resvg/resvg-js');
  const resvg = new resvgModule.Resvg(svg, {
    background: '#ffffff',
    fitTo: { mode: 'zoom', value: options.scale ?? 2 },
    font: { loadSystemFonts: true, defaultFontFamily: FONT_FAMILY.split(',')[0]!.trim() },
  });
  return resvg.render().asPng();
}

let resvgModule: typeof import('@resvg/resvg-js') | undefined;
