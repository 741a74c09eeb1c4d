import type { ComparisonRow, SideSummary } from '@netbench/results';
import type { ComparePage } from '../../shared/bridge-types';
import { ChartGrid } from '../charts/chart-view';
import { displayUnit, formatNumber, formatQuantities, joinUnit, maxAbs, metricName } from '@netbench/report/echarts';
import { href } from '../lib/route';
import { CompareNotes, ratio, unrepeated } from './compare-notes';

const CONFIG_KEYS = ['tool', 'test', 'direction', 'protocol', 'streams'];

/** The test that decided a row, and what it said (as `netbench compare`'s "decided by" column). */
function evidence(row: ComparisonRow): string {
  const signed = (x: number) => `${x >= 0 ? '+' : ''}${formatNumber(x)}`;
  if (row.decidedBy === 'mann-whitney' && row.mannWhitney) return `Mann–Whitney U, p = ${row.mannWhitney.p.toPrecision(2)}${row.mannWhitney.method === 'normal' ? ' (normal approx.)' : ''}`;
  if (row.decidedBy === 'welch-log' && row.welch) {
    const x = (v: number) => `×${Number(v.toPrecision(3))}`;
    return `Welch t on logs, p = ${row.welch.p.toPrecision(2)} (log-normal assumed; ratio ${Math.round(row.welch.confidence * 100)} % CI ${x(row.welch.low)}–${x(row.welch.high)})`;
  }
  if (row.decidedBy === 'bootstrap' && row.bootstrap) {
    // In the unit the row's values are shown in.
    const { symbol, factor } = displayUnit(row.unit, maxAbs([row.baseline.value, row.candidate.value]));
    return `bootstrap ${Math.round(row.bootstrap.confidence * 100)} % CI [${signed(row.bootstrap.low * factor)}, ${signed(row.bootstrap.high * factor)}]${symbol && symbol !== '%' ? ` ${symbol}` : ''}`;
  }
  return '—';
}

function Side({ role, side }: { role: string; side: SideSummary }) {
  const single = side.runs.length === 1 ? side.runs[0] : undefined;
  return (
    <li>
      <strong>{role}</strong>{' '}
      {single && side.selection === single ? <a href={href('run', single)}><code>{single}</code></a> : <code>{side.selection}</code>}
      {' '}<span className="muted small">{side.runs.length} run{side.runs.length === 1 ? '' : 's'}, {side.samples} samples</span>
    </li>
  );
}

/** Baseline and candidate in one unit, chosen by the larger (940 Mbit/s vs 1.2 Gbit/s reads 0.94 vs 1.2 Gbit/s). */
function Values({ row }: { row: ComparisonRow }) {
  const { symbol, texts } = formatQuantities([row.baseline.value, row.candidate.value], row.unit);
  return (
    <>
      <td>{joinUnit(texts[0]!, symbol)} <span className="muted small">n={row.baseline.n}</span></td>
      <td>{joinUnit(texts[1]!, symbol)} <span className="muted small">n={row.candidate.n}</span></td>
    </>
  );
}

/** Core's comparison metric by metric: values, change, verdict and the test that decided it; then both sides' charts. */
export function ComparisonView({ page }: { page: ComparePage }) {
  const { comparison, charts, chartsNote } = page;
  // With no row tested, the verdict columns would only repeat the header's note.
  const tested = comparison.rows.some((r) => !unrepeated(r));
  return (
    <>
      <ul className="plain" data-testid="compare-sides">
        <Side role="Baseline" side={comparison.baseline} />
        <Side role="Candidate" side={comparison.candidate} />
      </ul>
      <CompareNotes result={comparison} />
      <p className="muted small">Mann–Whitney U on the repetitions (a single figure with 2 or 3 values a side, too few for it: Welch's t-test on the logarithms) and a bootstrap of the median difference (metrics with histograms: at p50/p90/p99), α = {comparison.alpha}, {comparison.resamples} resamples (seed {comparison.seed}).</p>
      {comparison.warnings.length > 0 && <ul className="plain warn-text small">{comparison.warnings.map((w) => <li key={w}>{w}</li>)}</ul>}
      {comparison.rows.length === 0 ? <p className="panel">No series in common: nothing to compare.</p> : (
        <div className="table-scroll">
          <table className="data-table" data-testid="compare-table">
            <thead><tr><th scope="col">metric</th><th scope="col">statistic</th><th scope="col">configuration</th><th scope="col">baseline</th><th scope="col">candidate</th><th scope="col">change</th><th scope="col">ratio</th>{tested && <><th scope="col">verdict</th><th scope="col">decided by</th></>}</tr></thead>
            <tbody>
              {comparison.rows.map((r, i) => (
                <tr key={i}>
                  <td title={r.metric}>{metricName(r.metric)}</td><td>{r.statistic}</td>
                  <td className="small">{Object.entries(r.labels).filter(([k]) => CONFIG_KEYS.includes(k)).map(([k, v]) => `${k}=${String(v)}`).join(' ')}</td>
                  <Values row={r} />
                  <td>{Number.isFinite(r.deltaPct) ? `${r.deltaPct > 0 ? '+' : ''}${r.deltaPct.toFixed(1)} %` : '—'}</td>
                  <td data-testid="ratio">{ratio(r)}</td>
                  {tested && (unrepeated(r) ? <><td /><td className="small" data-testid="decided-by" /></> : (
                    <>
                      <td><span className={`verdict verdict-${r.verdict.replace(/\s+/g, '-')}`}>{r.verdict}</span>{r.note && r.verdict !== 'too few repetitions' && r.decidedBy !== 'welch-log' ? <span className="muted small"> {r.note}</span> : null}</td>
                      <td className="small" data-testid="decided-by">{evidence(r)}</td>
                    </>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {(comparison.baselineOnly.length > 0 || comparison.candidateOnly.length > 0) && (
        <details className="muted small">
          <summary>{comparison.baselineOnly.length} series only in the baseline, {comparison.candidateOnly.length} only in the candidate (not compared)</summary>
          <ul>{[...comparison.baselineOnly.map((s) => `baseline: ${s}`), ...comparison.candidateOnly.map((s) => `candidate: ${s}`)].map((s) => <li key={s}>{s}</li>)}</ul>
        </details>
      )}
      <h2>Charts</h2>
      {chartsNote && <p className="muted">{chartsNote}</p>}
      <ChartGrid charts={charts} />
    </>
  );
}
