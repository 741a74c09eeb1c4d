import { comparisonCells } from '@netbench/report/echarts';
import type { SideSummary } from '@netbench/results';
import type { ComparePage } from '../../shared/bridge-types';
import { ChartGrid } from '../charts/chart-view';
import { href } from '../lib/route';
import { CompareNotes } from './compare-notes';
import { CounterComparison } from './counter-comparison';

function Side({ role, side }: { role: string; side: SideSummary }) {
  const single = side.runs.length === 1 ? side.runs[0] : undefined;
  return (
    <li>
      <strong>{role}</strong>{' '}
      {single && side.selection === single ? (
        <a href={href('run', single)}>
          <code>{single}</code>
        </a>
      ) : (
        <code>{side.selection}</code>
      )}{' '}
      <span className="muted small">
        {side.runs.length} run{side.runs.length === 1 ? '' : 's'}, {side.samples} samples
      </span>
    </li>
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
      <p className="muted small" data-testid="compare-method">
        Each run gives one value per row — the median of its samples, or its own p50/p90/p99 for a metric with histograms — and the tests see only those: a run's packets, intervals
        and repetitions describe one condition, they are not replicates (two configurations of one run: its repetitions are). Baseline and candidate are the{' '}
        <strong>medians</strong> of those values; n counts runs. Mann–Whitney U (with 2 or 3 a side, too few for it: Welch's t-test on the logarithms) and a bootstrap of the median
        difference, α = {comparison.alpha}, {comparison.resamples} resamples (seed {comparison.seed}).
      </p>
      {comparison.warnings.length > 0 && (
        <ul className="plain warn-text small">
          {comparison.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      )}
      {comparison.rows.length === 0 ? (
        <p className="panel">No series in common: nothing to compare.</p>
      ) : (
        <div className="table-scroll">
          <table className="data-table" data-testid="compare-table">
            <thead>
              <tr>
                <th scope="col">metric</th>
                <th scope="col">statistic</th>
                <th scope="col">configuration</th>
                <th scope="col">baseline median</th>
                <th scope="col">candidate median</th>
                <th scope="col">change</th>
                <th scope="col">ratio</th>
                <th scope="col">verdict</th>
                <th scope="col">decided by</th>
              </tr>
            </thead>
            <tbody>
              {comparison.rows.map((r, i) => {
                const c = comparisonCells(r);
                return (
                  <tr key={i}>
                    <td title={r.metric}>{c.metric}</td>
                    <td data-testid="statistic">{c.statistic}</td>
                    <td className="small">{c.configuration}</td>
                    <td>{c.baseline}</td>
                    <td>{c.candidate}</td>
                    <td>{c.change}</td>
                    <td data-testid="ratio">{c.ratio}</td>
                    {/* Untested rows say so in plain text, never in a verdict's colour. */}
                    {!c.tested ? (
                      <>
                        <td className="muted" data-testid="not-tested">
                          {c.verdict}
                        </td>
                        <td className="small" data-testid="decided-by" />
                      </>
                    ) : (
                      <>
                        <td>
                          <span className={`verdict verdict-${c.verdict.replace(/\s+/g, '-')}`}>{c.verdict}</span>
                          {c.note ? <span className="muted small"> {c.note}</span> : null}
                        </td>
                        <td className="small" data-testid="decided-by">
                          {c.decidedBy}
                        </td>
                      </>
                    )}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {(comparison.baselineOnly.length > 0 || comparison.candidateOnly.length > 0) && (
        <details className="muted small">
          <summary>
            {comparison.baselineOnly.length} series only in the baseline, {comparison.candidateOnly.length} only in the candidate (not compared)
          </summary>
          <ul>
            {[...comparison.baselineOnly.map((s) => `baseline: ${s}`), ...comparison.candidateOnly.map((s) => `candidate: ${s}`)].map((s) => (
              <li key={s}>{s}</li>
            ))}
          </ul>
        </details>
      )}
      <CounterComparison result={comparison} />
      <h2>Charts</h2>
      <p className="muted small" data-testid="charts-statistic">
        The bars show the <strong>mean</strong> of each side's samples with a 95 % interval, and the CDFs every observation; the table above compares <strong>medians</strong> of
        runs.
      </p>
      {chartsNote && <p className="muted">{chartsNote}</p>}
      <ChartGrid charts={charts} />
    </>
  );
}
