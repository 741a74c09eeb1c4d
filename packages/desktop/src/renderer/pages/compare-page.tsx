import { ChartGrid } from '../charts/chart-view';
import { formatNumber } from '../lib/format';
import { href } from '../lib/route';
import { Loaded } from '../lib/status';
import { useCall } from '../lib/use-call';

/** Two stored runs metric by metric with core's significance verdicts, and their charts together. */
export function ComparePage({ baseline, candidate }: { baseline: string; candidate: string }) {
  const page = useCall('compareRuns', { baseline, candidate }, `${baseline}/${candidate}`);
  return (
    <section aria-labelledby="compare-title" data-testid="compare-page">
      <h1 id="compare-title">Compare <a href={href('run', baseline)}><code>{baseline}</code></a> (baseline) → <a href={href('run', candidate)}><code>{candidate}</code></a></h1>
      <Loaded state={page} what="the comparison">{({ comparison, charts }) => (
        <>
          <p className="muted small">Mann–Whitney U and bootstrap of the median difference, α = {comparison.alpha}, {comparison.resamples} resamples (seed {comparison.seed}).</p>
          {comparison.warnings.length > 0 && <ul className="plain warn-text small">{comparison.warnings.map((w) => <li key={w}>{w}</li>)}</ul>}
          <div className="table-scroll">
            <table className="data-table" data-testid="compare-table">
              <thead><tr><th scope="col">metric</th><th scope="col">statistic</th><th scope="col">configuration</th><th scope="col">baseline</th><th scope="col">candidate</th><th scope="col">change</th><th scope="col">verdict</th></tr></thead>
              <tbody>
                {comparison.rows.map((r, i) => (
                  <tr key={i}>
                    <td>{r.metric}</td><td>{r.statistic}</td>
                    <td className="small">{Object.entries(r.labels).filter(([k]) => ['tool', 'test', 'direction', 'protocol', 'streams'].includes(k)).map(([k, v]) => `${k}=${String(v)}`).join(' ')}</td>
                    <td>{formatNumber(r.baseline.value)} {r.unit} <span className="muted small">n={r.baseline.n}</span></td>
                    <td>{formatNumber(r.candidate.value)} {r.unit} <span className="muted small">n={r.candidate.n}</span></td>
                    <td>{Number.isFinite(r.deltaPct) ? `${r.deltaPct > 0 ? '+' : ''}${r.deltaPct.toFixed(1)} %` : '—'}</td>
                    <td><span className={`verdict verdict-${r.verdict.replace(/\s+/g, '-')}`}>{r.verdict}</span>{r.note ? <span className="muted small"> {r.note}</span> : null}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {(comparison.baselineOnly.length > 0 || comparison.candidateOnly.length > 0) && (
            <details className="muted small">
              <summary>{comparison.baselineOnly.length} series only in the baseline, {comparison.candidateOnly.length} only in the candidate (not compared)</summary>
              <ul>{[...comparison.baselineOnly.map((s) => `baseline: ${s}`), ...comparison.candidateOnly.map((s) => `candidate: ${s}`)].map((s) => <li key={s}>{s}</li>)}</ul>
            </details>
          )}
          <h2>Charts</h2>
          <ChartGrid charts={charts} />
        </>
      )}</Loaded>
    </section>
  );
}
