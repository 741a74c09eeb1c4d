import { seriesColor } from '@netbench/report/echarts';
import { ChartGrid } from '../charts/chart-view';
import { formatTime } from '../lib/format';
import { href } from '../lib/route';
import { Loaded } from '../lib/status';
import { useCall } from '../lib/use-call';

/**
 * Several runs on one set of charts (`#/overlay/A/B/C`, flent's
 * `*_combine`; `netbench report A B C` draws the same charts): one chart per
 * metric, each run in its own colour, a run's configurations told apart by
 * dash. The key says which colour is which run.
 */
export function OverlayPage({ runIds }: { runIds: readonly string[] }) {
  const page = useCall('overlayRuns', { runIds: [...runIds] }, runIds.join('/'));
  return (
    <section aria-labelledby="overlay-title" data-testid="overlay-page">
      <h1 id="overlay-title">Overlay of {runIds.length} runs</h1>
      <Loaded state={page} what="the runs">
        {(p) => (
          <>
            <ul className="plain run-key" data-testid="overlay-runs">
              {p.runs.map((r, i) => (
                <li key={r.runId} data-testid="overlay-run" data-color={seriesColor(i)}>
                  <span className="swatch" style={{ background: seriesColor(i) }} aria-hidden="true" />
                  <a href={href('run', r.runId)}>
                    <code>{r.runId}</code>
                  </a>{' '}
                  {r.name} <span className="muted small">{formatTime(r.startedAt)}</span>
                </li>
              ))}
            </ul>
            <p className="muted small">
              Colour is the run; where a run has several configurations on one chart, they differ by dash (solid, dashed, dotted). The same charts as{' '}
              <code>netbench report {p.runs.map((r) => r.runId).join(' ')}</code>.
            </p>
            {p.runs.length === 2 && (
              <p>
                <a className="button" href={href('compare', p.runs[0]!.runId, p.runs[1]!.runId)}>
                  Compare these two with verdicts
                </a>
              </p>
            )}
            <ChartGrid charts={p.charts} />
          </>
        )}
      </Loaded>
    </section>
  );
}
