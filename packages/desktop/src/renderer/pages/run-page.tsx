import { formatQuantities, formatQuantity, joinUnit, metricName } from '@netbench/report/echarts';
import { splitCharts, summaryTiles } from '@netbench/report/summary-tiles';
import { diagnosisLines, TRIAL_ROWS_NOTE, trialRows } from '@netbench/report/trial-rows';
import type { ChartSpec, RunShow, ShownMetric, ShownTrial } from '@netbench/results';
import { useDeferredValue, useMemo, useState } from 'react';
import type { ExportFormat } from '../../shared/bridge-types';
import { ChartGrid } from '../charts/chart-view';
import { call } from '../lib/bridge-client';
import { formatTime } from '../lib/format';
import { go, href } from '../lib/route';
import { saveFile } from '../lib/save-file';
import { Loaded, StatusBadge } from '../lib/status';
import { useCall } from '../lib/use-call';
import { RunAgainButton } from '../wizard/run-again-button';
import { RunHeader } from './run-header';
import { SummaryTiles } from './summary-tiles';

type RunShowData = Pick<RunShow, 'run' | 'trials'>;

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
    <Loaded state={page} what={`run ${runId}`}>
      {({ show, charts }) => (
        <section aria-labelledby="run-title" data-testid="run-page">
          <div className="page-head">
            <h1 id="run-title">
              {show.run.name} <code className="small">{show.run.runId}</code> <StatusBadge status={show.run.status} />
            </h1>
            <div className="row" role="group" aria-label="Export the run" data-testid="run-exports">
              <span className="muted small">Export</span>
              <button type="button" onClick={() => void exportAs('html')}>
                Report (HTML)
              </button>
              <button type="button" onClick={() => void exportAs('md')}>
                Markdown
              </button>
              <button type="button" onClick={() => void exportAs('csv')}>
                CSV
              </button>
              <button type="button" onClick={() => void exportAs('json')}>
                JSON
              </button>
            </div>
            <div className="row">
              <RunAgainButton runId={show.run.runId} />
            </div>
          </div>
          {exported && (
            <p className={exported.ok ? 'muted small' : 'error-text'} role={exported.ok ? 'status' : 'alert'} data-testid="export-status">
              {exported.text}
            </p>
          )}
          <p className="muted">
            {formatTime(show.run.startedAt)} · {show.run.samples} samples · {show.run.hosts.length} host(s)
            {' · '}
            <label>
              Compare with{' '}
              <select defaultValue="" onChange={(e) => e.target.value && go('compare', e.target.value, runId)} aria-label="Compare with another run (as baseline)">
                <option value="">choose a baseline…</option>
                {others.data?.runs
                  .filter((r) => r.runId !== runId)
                  .map((r) => (
                    <option key={r.runId} value={r.runId}>
                      {r.runId} {r.name}
                    </option>
                  ))}
              </select>
            </label>
          </p>
          <RunHeader run={show.run} />
          {show.run.errors.length > 0 && (
            <div className="panel panel-error" role="alert">
              <h2>Errors</h2>
              <ul>
                {show.run.errors.map((e) => (
                  <li key={e}>{e}</li>
                ))}
              </ul>
            </div>
          )}
          <RunBody show={show} charts={charts} />
          <p>
            <a href={href('results')}>← All results</a>
          </p>
        </section>
      )}
    </Loaded>
  );
}

/**
 * The headline per configuration first (tiles), the trial table, then the
 * charts to read first, with the detail (per-flow series, bars the tiles
 * already say) folded under them.
 */
function RunBody({ show, charts }: { show: RunShowData; charts: readonly ChartSpec[] }) {
  const tiles = useMemo(() => summaryTiles(show.trials), [show.trials]);
  const { first, more } = useMemo(() => splitCharts(charts, tiles !== undefined), [charts, tiles]);
  const runs = [{ runId: show.run.runId, startedAt: show.run.startedAt }];
  return (
    <>
      <h2>Summary</h2>
      {tiles && <SummaryTiles tiles={tiles} />}
      <SummaryTable trials={show.trials} />
      <h2>Charts</h2>
      <ChartGrid charts={first} runs={runs} />
      {more.length > 0 && (
        <details className="more-charts" data-testid="more-charts">
          <summary>
            More charts ({more.length}): {describeMore(more)}
          </summary>
          <ChartGrid charts={more} runs={runs} />
        </details>
      )}
    </>
  );
}

/** What the folded charts are, in a few words. */
function describeMore(charts: readonly ChartSpec[]): string {
  const perFlow = charts.filter((c) => c.detail).length;
  const bars = charts.length - perFlow;
  return [perFlow > 0 ? `${perFlow} per-flow series` : '', bars > 0 ? `${bars} bar chart${bars === 1 ? '' : 's'} of the numbers above` : ''].filter(Boolean).join(', ');
}

/** Rows drawn with the page; the scroll box shows fewer, so the rest never moves what is below it. */
const FIRST_ROWS = 50;

/**
 * One row per trial, as `netbench results show` prints it: hosts, the
 * parameters that differ, the result (throughput, else rate, else mean
 * latency), p50/p90/p99/p99.9 and loss. A run of hundreds of trials draws
 * its first rows with the page and the rest right after (a deferred render).
 */
function SummaryTable({ trials }: { trials: readonly ShownTrial[] }) {
  const rows = useMemo(() => trialRows(trials).map((texts, i) => ({ t: trials[i]!, texts })), [trials]);
  const shown = useDeferredValue(rows, rows.length > FIRST_ROWS ? rows.slice(0, FIRST_ROWS) : rows);
  return (
    <>
      <div className="table-scroll">
        <table className="data-table" data-testid="summary-table" data-rows={rows.length} aria-busy={shown.length < rows.length}>
          <thead>
            <tr>
              {['trial', 'tool · test', 'hosts', 'parameters', 'result', 'p50', 'p90', 'p99', 'p99.9', 'n', 'loss'].map((h, i) => (
                <th scope="col" key={h} className={i >= 4 ? 'num' : undefined}>
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.map(({ t, texts }) => (
              <tr key={t.id}>
                <td>
                  <code>{t.id}</code>
                </td>
                <td>
                  {t.tool} · {t.test}
                </td>
                <td>{texts.hosts}</td>
                <td className="small">{texts.parameters}</td>
                {t.status === 'succeeded' ? (
                  <td className="num" title={t.summary.headline ? metricName(t.summary.headline.metric) : undefined}>
                    {texts.result || <span className="muted">no samples</span>}
                  </td>
                ) : (
                  <td>
                    <StatusBadge status={t.status} />
                    {t.error ? <span className="error-text small"> {t.error}</span> : null}
                  </td>
                )}
                <td className="num">{texts.p50}</td>
                <td className="num">{texts.p90}</td>
                <td className="num">{texts.p99}</td>
                <td className="num">{texts.p999}</td>
                <td className="num" title="observations behind the percentiles (a percentile q needs n ≥ 5/(1−q))">
                  {texts.n}
                </td>
                <td className="num">{texts.loss}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="muted small">{TRIAL_ROWS_NOTE}</p>
      <Limits trials={trials} />
      <details data-testid="metrics-details">
        <summary>Every metric ({trials.reduce((n, t) => n + t.metrics.length, 0)} rows)</summary>
        <MetricsTable trials={trials} />
      </details>
    </>
  );
}

/** What limited each trial (host counters; docs/explain.md), as `results show` says it; nothing for a run without counters. */
function Limits({ trials }: { trials: readonly ShownTrial[] }) {
  const lines = useMemo(
    () =>
      diagnosisLines(trials)
        .slice(1)
        .map((l) => l.trim()),
    [trials],
  );
  if (lines.length === 0) return null;
  return (
    <section data-testid="limits" aria-label="What limited each trial">
      <h3>What limited each trial</h3>
      <ul className="small">
        {lines.map((l) => (
          <li key={l}>{l}</li>
        ))}
      </ul>
    </section>
  );
}

/** One row per trial and metric (`results show --metrics`), drawn only when opened. */
function MetricsTable({ trials }: { trials: readonly ShownTrial[] }) {
  const rows = useMemo(() => trials.flatMap((t) => t.metrics.map((m) => ({ t, m }))), [trials]);
  return (
    <div className="table-scroll">
      <table className="data-table" data-testid="metrics-table" data-rows={rows.length}>
        <thead>
          <tr>
            {['trial', 'tool · test', 'metric', 'value', 'p50', 'p90', 'p99', 'p99.9', 'n'].map((h, i) => (
              <th scope="col" key={h} className={i >= 3 ? 'num' : undefined}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map(({ t, m }, i) => (
            <tr key={`${t.id}-${i}`}>
              <td>
                <code>{t.id}</code>
              </td>
              <td>
                {t.tool} · {t.test}
              </td>
              <MetricCells m={m} />
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function MetricCells({ m }: { m: ShownMetric }) {
  // p50/p90/p99/p99.9 in one unit, chosen by the largest (26 µs, 90 µs, 2.48 ms read as 0.026, 0.09, 2.48 ms).
  const unit = m.percentileUnit ?? m.unit;
  const present = [m.p50, m.p90, m.p99, m.p999].filter((v): v is number => v !== undefined);
  const { symbol, texts } = formatQuantities(present, unit);
  // A metric without percentiles (a rate, a count) leaves the columns blank; one with some shows — for a missing one.
  const at = (v: number | undefined) => (v === undefined ? (present.length > 0 ? '—' : '') : joinUnit(texts[present.indexOf(v)]!, symbol));
  return (
    <>
      <td title={m.metric}>
        {metricName(m.metric)}
        {m.qualifier ? ` (${m.qualifier})` : ''}
      </td>
      <td className="num">
        {m.histogramOnly ? (
          <span className="muted" title="a histogram carried by a sample of value 0 (PKB's convention): its percentiles are to the right">
            histogram
          </span>
        ) : (
          formatQuantity(m.value, m.unit)
        )}
      </td>
      <td className="num">{at(m.p50)}</td>
      <td className="num">{at(m.p90)}</td>
      <td className="num">{at(m.p99)}</td>
      <td className="num">{at(m.p999)}</td>
      <td className="num">{m.n}</td>
    </>
  );
}
