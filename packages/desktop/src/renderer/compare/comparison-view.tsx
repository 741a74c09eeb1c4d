import type { ComparisonRow, SideSummary } from '@netbench/results';
import type { ComparePage } from '../../shared/bridge-types';
import { ChartGrid } from '../charts/chart-view';
import { displayUnit, formatNumber, formatQuantities, joinUnit, maxAbs, metricName } from '@netbench/report/echarts';
import { href } from '../lib/route';
import { CompareNotes, ratio, unrepeated } from './compare-notes';
import { CounterComparison } from './counter-comparison';

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

/**
 * What each side's figure is: the median over its replicates of each one's
 * value (`median`: of its samples; `p99 (median)`: of each replicate's p99).
 */
export function statisticText(row: ComparisonRow): string {
  if (row.statistic === 'value') return 'median';
  if (row.statistic === 'intervals') return 'median of intervals';
  return `${row.statistic} (median)`;
}

/** `n=3 runs`: the replicates the tests counted. */
const replicates = (row: ComparisonRow, n: number) => `n=${n} ${row.replicates}${n === 1 ? '' : 's'}`;

/** Baseline and candidate in one unit, chosen by the larger (940 Mbit/s vs 1.2 Gbit/s reads 0.94 vs 1.2 Gbit/s). */
function Values({ row }: { row: ComparisonRow }) {
  const { symbol, texts } = formatQuantities([row.baseline.value, row.candidate.value], row.unit);
  return (
    <>
      <td>{joinUnit(texts[0]!, symbol)} <span className="muted small">{replicates(row, row.baseline.n)}</span></td>
      <td>{joinUnit(texts[1]!, symbol)} <span className="muted small">{replicates(row, row.candidate.n)}</span></td>
    </>
  );
}

/** Core's comparison metric by metric: values, change, verdict and the test that decided it; then both sides' charts. */
export function ComparisonView({ page }: { page: ComparePage }) {
  const { comparison, charts, chartsNote } = page;
  return (
    <>
      <ul className="plain" data-testid="compare-sides">
        <Side role="Baseline" side={comparison.baseline} />
        <Side role="Candidate" side={comparison.candidate} />
      </ul>
      <CompareNotes result={comparison} />
      <p className="muted small" data-testid="compare-method">Each run gives one value per row — the median of its samples, or its own p50/p90/p99 for a metric with histograms — and the tests see only those: a run's packets, intervals and repetitions describe one condition, they are not replicates (two configurations of one run: its repetitions are). Baseline and candidate are the <strong>medians</strong> of those values; n counts runs. Mann–Whitney U (with 2 or 3 a side, too few for it: Welch's t-test on the logarithms) and a bootstrap of the median difference, α = {comparison.alpha}, {comparison.resamples} resamples (seed {comparison.seed}).</p>
      {comparison.warnings.length > 0 && <ul className="plain warn-text small">{comparison.warnings.map((w) => <li key={w}>{w}</li>)}</ul>}
      {comparison.rows.length === 0 ? <p className="panel">No series in common: nothing to compare.</p> : (
        <div className="table-scroll">
          <table className="data-table" data-testid="compare-table">
            <thead><tr><th scope="col">metric</th><th scope="col">statistic</th><th scope="col">configuration</th><th scope="col">baseline median</th><th scope="col">candidate median</th><th scope="col">change</th><th scope="col">ratio</th><th scope="col">verdict</th><th scope="col">decided by</th></tr></thead>
            <tbody>
              {comparison.rows.map((r, i) => (
                <tr key={i}>
                  <td title={r.metric}>{metricName(r.metric)}</td><td data-testid="statistic">{statisticText(r)}</td>
                  <td className="small">{Object.entries(r.labels).filter(([k]) => CONFIG_KEYS.includes(k)).map(([k, v]) => `${k}=${String(v)}`).join(' ')}</td>
                  <Values row={r} />
                  <td>{Number.isFinite(r.deltaPct) ? `${r.deltaPct > 0 ? '+' : ''}${r.deltaPct.toFixed(1)} %` : '—'}</td>
                  <td data-testid="ratio">{ratio(r)}</td>
                  {/* Untested rows say so in plain text, never in a verdict's colour. */}
                  {unrepeated(r) ? <><td className="muted" data-testid="not-tested">{r.note ?? 'not tested'}</td><td className="small" data-testid="decided-by" /></> : (
                    <>
                      <td><span className={`verdict verdict-${r.verdict.replace(/\s+/g, '-')}`}>{r.verdict}</span>{r.note && r.verdict !== 'too few repetitions' && r.decidedBy !== 'welch-log' ? <span className="muted small"> {r.note}</span> : null}</td>
                      <td className="small" data-testid="decided-by">{evidence(r)}</td>
                    </>
                  )}
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
      <CounterComparison result={comparison} />
      <h2>Charts</h2>
      <p className="muted small" data-testid="charts-statistic">The bars show the <strong>mean</strong> of each side's samples with a 95 % interval, and the CDFs every observation; the table above compares <strong>medians</strong> of runs.</p>
      {chartsNote && <p className="muted">{chartsNote}</p>}
      <ChartGrid charts={charts} />
    </>
  );
}
