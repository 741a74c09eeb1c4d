import type { ChartSpec } from '@netbench/results';
import { useLayoutEffect, useRef, useState } from 'react';
import { dataUrlBytes, saveFile } from '../lib/save-file';
import { useTheme } from '../lib/theme';
import { chartOption, chartRows, type ChartTheme } from './chart-option';
import { echarts } from './echarts';
import { heatmapHeight, WIDE_HEATMAP_COLUMNS } from './heatmap-layout';

const TABLE_ROWS = 500;

function chartTheme(dark: boolean): ChartTheme {
  return dark ? { text: '#e6e8eb', muted: '#a8b0ba', grid: '#333a44' } : { text: '#1d232b', muted: '#56606c', grid: '#e3e6ea' };
}

/**
 * One chart from core's specification, drawn interactively (zoom, tooltips),
 * with PNG/SVG export and a data table (keyboard and screen-reader users get
 * the numbers, not only a picture).
 */
export function ChartView({ spec, height = defaultHeight(spec) }: { spec: ChartSpec; height?: number }) {
  const ref = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | undefined>(undefined);
  const { dark } = useTheme();
  const [showTable, setShowTable] = useState(false);
  const [saved, setSaved] = useState<{ ok: boolean; text: string } | undefined>();
  // The drawn size, for the options that depend on it (a heatmap's cell labels).
  const [size, setSize] = useState('');

  // Layout effects: the chart is drawn before the page is first painted, not in a second frame
  // after it (painting a run page with a long summary table took ~0.2 s on its own).
  useLayoutEffect(() => {
    const el = ref.current!;
    const instance = echarts.init(el, undefined, { renderer: 'canvas' });
    chart.current = instance;
    let size = `${el.clientWidth}×${el.clientHeight}`;
    const resize = new ResizeObserver(() => {
      // The observer's first report is the size init() measured: drawing again would only double the cost.
      const now = `${el.clientWidth}×${el.clientHeight}`;
      if (now === size) return;
      size = now;
      instance.resize();
      setSize(now);
    });
    resize.observe(el);
    return () => { resize.disconnect(); instance.dispose(); chart.current = undefined; };
  }, []);

  const sizeMatters = spec.kind === 'heatmap';
  useLayoutEffect(() => {
    const el = ref.current!;
    const started = performance.now();
    chart.current?.setOption(chartOption(spec, chartTheme(dark), { width: el.clientWidth, height: el.clientHeight }), { notMerge: true, lazyUpdate: false });
    el.setAttribute('data-render-ms', (performance.now() - started).toFixed(1));
  }, [spec, dark, sizeMatters ? size : '']);

  const save = (make: () => [string, string | Uint8Array, string]) => {
    setSaved(undefined);
    try {
      const [name, content, type] = make();
      saveFile(name, content, type).then(
        (result) => setSaved(result.done ? { ok: true, text: result.message } : undefined),
        (error: unknown) => setSaved({ ok: false, text: (error as Error).message }),
      );
    } catch (error) {
      setSaved({ ok: false, text: (error as Error).message });
    }
  };
  const exportPng = () => save(() => {
    const url = chart.current?.getDataURL({ type: 'png', pixelRatio: 2, backgroundColor: dark ? '#15191e' : '#ffffff' });
    if (!url) throw new Error('the chart is not drawn yet');
    return [`${spec.id}.png`, dataUrlBytes(url), 'image/png'];
  });
  const exportSvg = () => save(() => {
    // A second, off-screen instance with the SVG renderer gives a vector file of the same option.
    const div = document.createElement('div');
    const width = ref.current?.clientWidth || 900;
    const svg = echarts.init(div, undefined, { renderer: 'svg', ssr: true, width, height });
    try {
      svg.setOption(chartOption(spec, chartTheme(false), { width, height }));
      return [`${spec.id}.svg`, svg.renderToSVGString(), 'image/svg+xml'];
    } finally {
      svg.dispose();
    }
  });

  const rows = showTable ? chartRows(spec) : [];
  return (
    <figure className={wide(spec) ? 'chart chart-wide' : 'chart'} data-chart-id={spec.id} data-chart-kind={spec.kind}>
      <div ref={ref} className="chart-canvas" style={{ height }} role="img" aria-label={`${spec.title}${spec.subtitle ? ` — ${spec.subtitle}` : ''}`} />
      <figcaption>
        <span className="chart-notes">{spec.notes.join(' ')}</span>
        <span className="chart-actions">
          <button type="button" onClick={exportPng} aria-label={`Export ${spec.title} as PNG`}>PNG</button>
          <button type="button" onClick={exportSvg} aria-label={`Export ${spec.title} as SVG`}>SVG</button>
          <button type="button" aria-expanded={showTable} onClick={() => setShowTable((v) => !v)}>{showTable ? 'Hide data' : 'Data'}</button>
        </span>
      </figcaption>
      {saved && <p className={`small ${saved.ok ? 'muted' : 'error-text'}`} role={saved.ok ? 'status' : 'alert'}>{saved.text}</p>}
      {showTable && (
        <div className="table-scroll">
          <table className="data-table">
            <thead><tr>{rows[0]!.map((h) => <th key={h} scope="col">{h}</th>)}</tr></thead>
            <tbody>{rows.slice(1, TABLE_ROWS + 1).map((r, i) => <tr key={i}>{r.map((c, j) => <td key={j}>{c}</td>)}</tr>)}</tbody>
          </table>
          {rows.length - 1 > TABLE_ROWS && <p className="muted">First {TABLE_ROWS} of {rows.length - 1} rows; export the run for all.</p>}
        </div>
      )}
    </figure>
  );
}

/** Heatmaps with many rows are drawn taller, so that each row holds a line of text. */
function defaultHeight(spec: ChartSpec): number {
  return spec.kind === 'heatmap' ? heatmapHeight(spec.y.categories.length) : 340;
}

/** Heatmaps with many columns take the grid's full width. */
function wide(spec: ChartSpec): boolean {
  return spec.kind === 'heatmap' && spec.x.categories.length > WIDE_HEATMAP_COLUMNS;
}

export function ChartGrid({ charts }: { charts: readonly ChartSpec[] }) {
  if (charts.length === 0) return <p className="muted">No charts for these results.</p>;
  return <div className="chart-grid">{charts.map((c) => <ChartView key={c.id} spec={c} />)}</div>;
}
