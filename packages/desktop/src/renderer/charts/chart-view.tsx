import {
  barRatio,
  chartRows,
  DARK_THEME,
  displayText,
  exportFooter,
  figureOf,
  heatmapHeight,
  LIGHT_THEME,
  LOG_RATIO,
  type RenderOptions,
  WIDE_HEATMAP_COLUMNS,
} from '@netbench/report/echarts';
import type { ChartSpec } from '@netbench/results';
import { useLayoutEffect, useRef, useState } from 'react';
import { dataUrlBytes, saveFile } from '../lib/save-file';
import { useTheme } from '../lib/theme';
import { echarts } from './echarts';

const TABLE_ROWS = 500;

/** Which runs a chart draws, with their start times: exported pictures carry them. */
export interface ChartRun {
  readonly runId: string;
  readonly startedAt?: string;
}

/**
 * One chart from core's specification, drawn interactively (zoom, tooltips)
 * by the report's renderer (`@netbench/report/echarts`, the same mapping,
 * palette and unit rules as the HTML report), with PNG/SVG export (carrying
 * run id and date), a data table (keyboard and screen-reader users get the
 * numbers, not only a picture), a log-tail view for CDFs and a log/linear
 * switch for bars of very different sizes.
 */
export function ChartView({ spec, runs, height = defaultHeight(spec) }: { spec: ChartSpec; runs?: readonly ChartRun[]; height?: number }) {
  const ref = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | undefined>(undefined);
  const { dark } = useTheme();
  const [showTable, setShowTable] = useState(false);
  const [saved, setSaved] = useState<{ ok: boolean; text: string } | undefined>();
  const [cdfView, setCdfView] = useState<'cdf' | 'tail'>('cdf');
  const manyScales = spec.kind === 'bar' && barRatio(spec) > LOG_RATIO;
  const [barScale, setBarScale] = useState<'log' | 'linear'>('log');
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
    return () => {
      resize.disconnect();
      instance.dispose();
      chart.current = undefined;
    };
  }, []);

  const view: RenderOptions = { cdfView, ...(manyScales ? { barScale } : {}) };
  useLayoutEffect(() => {
    const el = ref.current!;
    const started = performance.now();
    const drawn = el.clientHeight || height;
    const figure = figureOf(spec, { ...view, theme: dark ? DARK_THEME : LIGHT_THEME, interactive: true, size: { width: el.clientWidth || 900, height: drawn } });
    // A figure that needs more room than the grid's default (legend rows, a box per row) grows; the observer then draws it at that size.
    if (figure.height > drawn) el.style.height = `${figure.height}px`;
    chart.current?.setOption(figure.option, { notMerge: true, lazyUpdate: false });
    el.setAttribute('data-render-ms', (performance.now() - started).toFixed(1));
  }, [spec, dark, size, cdfView, barScale]);

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
  // Exports are drawn off screen in the light theme with a footer naming the run(s) and date.
  const exported = (renderer: 'canvas' | 'svg', draw: (instance: echarts.ECharts) => [string, string | Uint8Array, string]) => () =>
    save(() => {
      const width = ref.current?.clientWidth || 900;
      const height = ref.current?.clientHeight || defaultHeight(spec);
      const div = document.createElement('div');
      const instance = echarts.init(div, undefined, { renderer, width, height, ...(renderer === 'svg' ? { ssr: true } : { devicePixelRatio: 2 }) });
      try {
        const footer = exportFooter(runs ?? spec.runIds.map((runId) => ({ runId })));
        instance.setOption(figureOf(spec, { ...view, theme: LIGHT_THEME, size: { width, height }, footer }).option);
        return draw(instance);
      } finally {
        instance.dispose();
      }
    });
  const exportPng = exported('canvas', (instance) => [
    `${spec.id}.png`,
    dataUrlBytes(instance.getDataURL({ type: 'png', pixelRatio: 2, backgroundColor: '#ffffff' })),
    'image/png',
  ]);
  const exportSvg = exported('svg', (instance) => [`${spec.id}.svg`, instance.renderToSVGString(), 'image/svg+xml']);

  const text = displayText(spec);
  const rows = showTable ? chartRows(spec, { formatted: true }) : [];
  return (
    <figure className={wide(spec) ? 'chart chart-wide' : 'chart'} data-chart-id={spec.id} data-chart-kind={spec.kind}>
      <div ref={ref} className="chart-canvas" style={{ height }} role="img" aria-label={`${text.title}${text.subtitle ? ` — ${text.subtitle}` : ''}`} />
      <figcaption>
        <span className="chart-notes">{spec.notes.join(' ')}</span>
        <span className="chart-actions">
          {spec.kind === 'cdf' && (
            <button
              type="button"
              aria-pressed={cdfView === 'tail'}
              onClick={() => setCdfView((v) => (v === 'cdf' ? 'tail' : 'cdf'))}
              title="1 − CDF on a log axis: the share of measurements above each latency"
            >
              {cdfView === 'tail' ? 'CDF' : 'Log tail'}
            </button>
          )}
          {manyScales && (
            <button
              type="button"
              aria-pressed={barScale === 'log'}
              onClick={() => setBarScale((s) => (s === 'log' ? 'linear' : 'log'))}
              title={`The largest bar is ${Math.round(barRatio(spec))}× the smallest`}
            >
              {barScale === 'log' ? 'Linear axis' : 'Log axis'}
            </button>
          )}
          <button type="button" onClick={exportPng} aria-label={`Export ${text.title} as PNG`}>
            PNG
          </button>
          <button type="button" onClick={exportSvg} aria-label={`Export ${text.title} as SVG`}>
            SVG
          </button>
          <button type="button" aria-expanded={showTable} onClick={() => setShowTable((v) => !v)}>
            {showTable ? 'Hide data' : 'Data'}
          </button>
        </span>
      </figcaption>
      {saved && (
        <p className={`small ${saved.ok ? 'muted' : 'error-text'}`} role={saved.ok ? 'status' : 'alert'}>
          {saved.text}
        </p>
      )}
      {showTable && (
        <div className="table-scroll">
          <table className="data-table">
            <thead>
              <tr>
                {rows[0]!.map((h) => (
                  <th key={h} scope="col">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.slice(1, TABLE_ROWS + 1).map((r, i) => (
                <tr key={i}>
                  {r.map((c, j) => (
                    <td key={j}>{c}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
          {rows.length - 1 > TABLE_ROWS && (
            <p className="muted">
              First {TABLE_ROWS} of {rows.length - 1} rows; export the run for all.
            </p>
          )}
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

export function ChartGrid({ charts, runs }: { charts: readonly ChartSpec[]; runs?: readonly ChartRun[] }) {
  if (charts.length === 0) return <p className="muted">No charts for these results.</p>;
  return (
    <div className="chart-grid">
      {charts.map((c) => (
        <ChartView key={c.id} spec={c} {...(runs ? { runs: runs.filter((r) => c.runIds.includes(r.runId)) } : {})} />
      ))}
    </div>
  );
}
