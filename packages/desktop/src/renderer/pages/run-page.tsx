import type { ShownMetric, ShownTrial } from '@netbench/results';
import { useDeferredValue, useMemo, useState } from 'react';
import type { ExportFormat } from '../../shared/bridge-types';
import { ChartGrid } from '../charts/chart-view';
import { call } from '../lib/bridge-client';
import { formatQuantities, formatQuantity, joinUnit, metricName } from '@netbench/report/echarts';
import { formatTime } from '../lib/format';
import { saveFile } from '../lib/save-file';
import { go, href } from '../lib/route';
import { Loaded, StatusBadge } from '../lib/status';
import { useCall } from '../lib/use-call';
import { RunHeader } from './run-header';

/** One stored run: header, summary table per trial, its charts, exports. */
export function RunPage({ runId }: { runId: string }) {
  const page = useCall('showRun', { runId }, runId);
  const others = useCall('listRuns', { limit: 50 }, 'recent');
  const [exported, setExported] = useState<{ ok: boolean; text: string } | undefined>();

  const exportAs = async (format: ExportFormat) => {
    setExported(undefined);
    try {
      const file = await call('exportRun', { runId, format });
      const saved = await saveFile(file.fileName, file.content, file.mimeType);
      if (saved.done) setExported({ ok: true, text: saved.message });
    } catch (e) {
      setExported({ ok: false, text: (e as Error).message });
    }
  };

  return (
    <Loaded state={page} what={`run ${runId}`}>{({ show, charts }) => (
      <section aria-labelledby="run-title" data-testid="run-page">
        <div className="page-head">
          <h1 id="run-title">{show.run.name} <code className="small">{show.run.runId}</code> <StatusBadge status={show.run.status} /></h1>
          <div className="row" role="group" aria-label="Export the run" data-testid="run-exports">
            <span className="muted small">Export</span>
            <button type="button" onClick={() => void exportAs('html')}>Report (HTML)</button>
            <button type="button" onClick={() => void exportAs('md')}>Markdown</button>
            <button type="button" onClick={() => void exportAs('csv')}>CSV</button>
            <button type="button" onClick={() => void exportAs('json')}>JSON</button>
          </div>
        </div>
        {exported && <p className={exported.ok ? 'muted small' : 'error-text'} role={exported.ok ? 'status' : 'alert'} data-testid="export-status">{exported.text}</p>}
        <p className="muted">
          {formatTime(show.run.startedAt)} · {show.run.samples} samples · {show.run.hosts.length} host(s)
          {' · '}
          <label>Compare with{' '}
            <select defaultValue="" onChange={(e) => e.target.value && go('compare', e.target.value, runId)} aria-label="Compare with another run (as baseline)">
              <option value="">choose a baseline…</option>
              {others.data?.runs.filter((r) => r.runId !== runId).map((r) => <option key={r.runId} value={r.runId}>{r.runId} {r.name}</option>)}
            </select>
          </label>
        </p>
        <RunHeader run={show.run} />
        {show.run.errors.length > 0 && <div className="panel panel-error" role="alert"><h2>Errors</h2><ul>{show.run.errors.map((e) => <li key={e}>{e}</li>)}</ul></div>}
        <h2>Summary</h2>
        <SummaryTable trials={show.trials} />
        <h2>Charts</h2>
        <ChartGrid charts={charts} runs={[{ runId: show.run.runId, startedAt: show.run.startedAt }]} />
        <p><a href={href('results')}>← All results</a></p>
      </section>
    )}</Loaded>
  );
}

/** Rows drawn with the page; the scroll box shows fewer, so the rest never moves what is below it. */
const FIRST_ROWS = 50;

/**
 * One row per trial and metric. A run of hundreds of trials draws its first
 * rows with the page and the rest right after (a deferred render): laying
 * out a 400-row table took ~0.3 s, which the charts below no longer wait for.
 */
function SummaryTable({ trials }: { trials: readonly ShownTrial[] }) {
  const rows = useMemo(() => trials.flatMap((t): { t: ShownTrial; m?: ShownMetric }[] => (t.metrics.length === 0 ? [{ t }] : t.metrics.map((m) => ({ t, m })))), [trials]);
  const shown = useDeferredValue(rows, rows.length > FIRST_ROWS ? rows.slice(0, FIRST_ROWS) : rows);
  return (
    <div className="table-scroll">
      <table className="data-table" data-testid="summary-table" data-rows={rows.length} aria-busy={shown.length < rows.length}>
        <thead><tr><th scope="col">trial</th><th scope="col">tool · test</th><th scope="col">status</th><th scope="col">metric</th><th scope="col">value</th><th scope="col">p50</th><th scope="col">p90</th><th scope="col">p99</th><th scope="col">n</th></tr></thead>
        <tbody>
          {shown.map(({ t, m }, i) => (
            <tr key={`${t.id}-${i}`}>
              <td><code>{t.id}</code></td><td>{t.tool} · {t.test}</td><td><StatusBadge status={t.status} />{t.error ? <span className="error-text small"> {t.error}</span> : null}</td>
              {m ? <MetricCells m={m} /> : <td colSpan={6} className="muted">no samples</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function MetricCells({ m }: { m: ShownMetric }) {
  // p50/p90/p99 in one unit, chosen by the largest (26 µs, 90 µs, 2.48 ms read as 0.026, 0.09, 2.48 ms).
  const unit = m.percentileUnit ?? m.unit;
  const present = [m.p50, m.p90, m.p99].filter((v): v is number => v !== undefined);
  const { symbol, texts } = formatQuantities(present, unit);
  const at = (v: number | undefined) => (v === undefined ? '—' : joinUnit(texts[present.indexOf(v)]!, symbol));
  return (
    <>
      <td title={m.metric}>{metricName(m.metric)}</td><td>{formatQuantity(m.value, m.unit)}</td>
      <td>{at(m.p50)}</td>
      <td>{at(m.p90)}</td>
      <td>{at(m.p99)}</td>
      <td>{m.n}</td>
    </>
  );
}
