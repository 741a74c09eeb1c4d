import { chartsFor, type HeatmapChart } from '@netbench/results';
import { describe, expect, it } from 'vitest';
import { interRegionResults, ZONES } from './__fixtures__/inter-region.js';
import { figureOf } from './figure.js';
import { inlineSvg } from './inline-svg.js';
import { sequentialColor, textColorOn } from './palette.js';
import { renderHtml } from './render-html.js';
import { renderMarkdown } from './render-markdown.js';
import { renderPng } from './render-png.js';
import { renderSvg } from './render-svg.js';
import { measureText } from './text-metrics.js';
import { formatNumber } from './units.js';

const results = interRegionResults();
const charts = chartsFor([results]);
const heatmap = charts.find((c): c is HeatmapChart => c.kind === 'heatmap')!;

/** Width and height from a PNG's IHDR chunk, after checking the signature. */
function pngSize(png: Uint8Array): { width: number; height: number } {
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(Buffer.from(png.subarray(12, 16)).toString('latin1')).toBe('IHDR');
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

describe('the whitepaper matrix as a heatmap', () => {
  it('chooses exactly one heatmap, of average RTT by region, from the 380 ping trials', () => {
    expect(charts.map((c) => c.kind)).toEqual(['heatmap']);
    expect(heatmap.y.categories).toHaveLength(20);
    expect(heatmap.cells).toHaveLength(380);
    expect(heatmap.y.categories[0]).toBe('asia-east1');
    // Fig. 2: asia-south1 → southamerica-east1 is the slowest pair (384 ms).
    const slowest = heatmap.cells.reduce((a, b) => (b.value > a.value ? b : a));
    expect([heatmap.y.categories[slowest.y], heatmap.x.categories[slowest.x]]).toEqual(['asia-south1', 'southamerica-east1']);
    expect(slowest.value).toBeGreaterThan(370);
  });

  it('renders an SVG with every region, both axis names, the unit and the cell values', () => {
    const svg = renderSvg(heatmap);
    expect(svg.startsWith('<svg')).toBe(true);
    for (const zone of ZONES) expect(svg).toContain(`>${zone.replace(/-[a-z]$/, '')}<`);
    expect(svg).toContain('sending region');
    expect(svg).toContain('receiving region');
    expect(svg).toContain('lower is better');
    expect(svg).toMatch(/>\d+(\.\d+)? ms</);
    // europe-west1 → europe-west2 is 7 ms in Fig. 2; shown as a whole number like the whitepaper.
    expect(svg).toContain('>7<');
  });

  it('renders a PNG twice the SVG size with the system font', () => {
    const { width, height } = figureOf(heatmap);
    const size = pngSize(renderPng(heatmap));
    expect(size).toEqual({ width: width * 2, height: height * 2 });
    expect(width).toBeGreaterThan(900);
    expect(width).toBeLessThan(1600);
    expect(pngSize(renderPng(heatmap, { scale: 1 }))).toEqual({ width, height });
  });
});

describe('HTML and Markdown', () => {
  it('writes one self-contained HTML file: tables, inline SVG, chart spec, run spec, environment, nothing external', () => {
    const hostile = { ...results, run: { ...results.run, specText: 'name: x # </pre><script>alert(1)</script>\n' } };
    const html = renderHtml([hostile], charts, { generatedAt: new Date('2026-11-22T12:00:00Z') });
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).not.toMatch(/https?:\/\//);
    // url(#…) are the SVGs' own clip paths; anything else would be fetched.
    expect(html).not.toMatch(/<script|<link|<img|@import|url\((?!#)/i);
    expect(html.match(/<svg /g)).toHaveLength(charts.length);
    expect(html).toContain(`id="chart-${heatmap.id}"`);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&quot;kind&quot;: &quot;heatmap&quot;');
    expect(html).toContain('ping s20221126');
    expect(html).toMatch(/<td>t0380<\/td>/);
    expect(html).toContain('Generated 2026-11-22T12:00:00.000Z');
  });

  it('writes Markdown with image links and the heatmap as a table', () => {
    const md = renderMarkdown([results], charts, { imagePath: (c) => `img/${c.id}.svg` });
    // Metric ids read as names: `Average Latency (ping)` → `Average latency (ping)`.
    expect(md).toContain(`![${heatmap.title.replace('Average Latency', 'Average latency')}](img/${heatmap.id}.svg)`);
    expect(md).toMatch(/\| asia-east1 \|  \| 13 \| 36 \|/);
    expect(md).toContain('```yaml');
    // One row per trial with the result and percentiles in their own columns, in units their size fills.
    expect(md).toContain('| trial | tool | test | hosts | parameters | status | result | p50 | p90 | p99 | p99.9 | loss |');
    expect(md).toMatch(/\| t0001 \| ping \| icmp \| [^|]+ → [^|]+ \|[^|]*\| succeeded \| mean [\d.]+ ms \|/);
  });

  it('escapes HTML in every user text of the Markdown (run name, description, trial ids, hosts, labels, errors); the spec cannot close its fence', () => {
    // Zones are host names, labels, chart categories and table cells at once.
    const tag = '<img src=x onerror=alert(1)>';
    const marked = JSON.parse(JSON.stringify(results).replaceAll('asia-east1', `asia-east1${tag}`).replaceAll('"t0001"', `"t0001${tag}"`)) as typeof results;
    const hostile = {
      ...marked,
      run: { ...marked.run, name: `run</h2>${tag}`, description: `about <script>alert(1)</script>`, owner: `me${tag}`, specText: 'name: x\n```\n<script>alert(1)</script>\n' },
    };
    const md = renderMarkdown([hostile], chartsFor([hostile]));
    const fence = /^(`{3,})yaml$/m.exec(md)![1]!;
    expect(fence.length).toBeGreaterThan(3);
    // Outside the spec's fence (where HTML is shown as typed) no tag is left.
    const [before, rest] = md.split(`${fence}yaml\n`);
    const after = rest!.slice(rest!.indexOf(`\n${fence}\n`) + fence.length + 2);
    expect(`${before}${after}`).not.toMatch(/<[a-z/!]/i);
    expect(md).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(md).toContain('## Run ');
    expect(md).toContain('run&lt;/h2&gt;');
    expect(md).toContain('about &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(md).toMatch(/\| t0001&lt;img src=x onerror=alert\(1\)&gt; \|/);
  });

  it('inlines SVG without namespace URLs and scales it to the page', () => {
    const svg = inlineSvg('<svg width="900" height="500" xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 900 500"></svg>', 'a "title"');
    expect(svg).toBe(
      '<svg role="img" aria-label="a &quot;title&quot;" style="width:100%;max-width:900px;height:auto" data-width="900" data-height="500" viewBox="0 0 900 500"></svg>',
    );
  });
});

describe('helpers', () => {
  it('formats numbers for people', () => {
    expect([14037.13, 0.0781, 28.94, 140, 0, 1e-6].map(formatNumber)).toEqual(['14,037', '0.0781', '28.9', '140', '0', '1.00e-6']);
  });

  it('measures DejaVu Sans widths, bold wider than regular', () => {
    expect(measureText('mmmm', '10px sans-serif').width).toBeCloseTo(38.96, 2);
    expect(measureText('Average', 'bold 16px DejaVu Sans').width).toBeGreaterThan(measureText('Average', '16px DejaVu Sans').width);
  });

  it('keeps cell text readable on the heatmap scale', () => {
    expect(textColorOn(sequentialColor(0))).toBe('#111111');
    expect(textColorOn(sequentialColor(1))).toBe('#ffffff');
  });
});

describe('a latency-under-load run in the report', () => {
  it("says each load trial's total goodput, idle → loaded latency, increase and RPM, in Markdown and HTML", async () => {
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const load = JSON.parse(readFileSync(join(import.meta.dirname, '../../results/src/store/__fixtures__/load-results.json'), 'utf8'));
    const md = renderMarkdown([load], chartsFor([load]));
    expect(md).toMatch(/goodput 19\.3 Mbit\/s · icmp idle 582 µs → loaded 101 ms \(\+100 ms\) · \d+ RPM/);
    expect(md).toMatch(/goodput 12\.8 Mbit\/s · icmp idle 639 µs → loaded 1\.13 ms \(\+491 µs\)/);
    const html = renderHtml([load], chartsFor([load]), { generatedAt: new Date('2026-12-07T06:00:00Z') });
    expect(html).toContain('goodput 16.4 Mbit/s');
    expect(html).toContain('loaded 1.14 ms');
  });
});
