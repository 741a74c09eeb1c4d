import { useState } from 'react';
import type { ResultsFilter } from '../../shared/bridge-types';
import { formatDuration, formatTime } from '../lib/format';
import { go, href } from '../lib/route';
import { Loaded, StatusBadge } from '../lib/status';
import { useCall } from '../lib/use-call';

const PAGE = 200;

/** History from the results store, newest first, with filters; pick two runs to compare. */
export function ResultsPage() {
  const [draft, setDraft] = useState({ spec: '', tool: '', status: '', since: '' });
  const [filter, setFilter] = useState<ResultsFilter>({ limit: PAGE });
  const [picked, setPicked] = useState<string[]>([]);
  const runs = useCall('listRuns', filter, JSON.stringify(filter));
  const active = useCall('activeRuns', {}, 'active');

  const apply = (e: React.FormEvent) => {
    e.preventDefault();
    setFilter({
      limit: filter.limit ?? PAGE,
      ...(draft.spec ? { spec: draft.spec } : {}), ...(draft.tool ? { tool: draft.tool } : {}),
      ...(draft.status ? { status: draft.status } : {}), ...(draft.since ? { since: draft.since } : {}),
    });
  };
  const toggle = (id: string) => setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p.slice(-1), id]));

  return (
    <section aria-labelledby="results-title" data-testid="results-page">
      <div className="page-head">
        <h1 id="results-title">Results</h1>
        <div className="row">
          <a className="button" href={href('compare', 'labels')} data-testid="compare-labels-link">Compare label selections…</a>
          <button type="button" className="primary" disabled={picked.length !== 2} onClick={() => go('compare', picked[0]!, picked[1]!)} data-testid="compare-button">
            Compare {picked.length}/2 selected
          </button>
        </div>
      </div>
      {active.data && active.data.length > 0 && (
        <p className="panel">Running now: {active.data.map((id) => <a key={id} href={href('live', id)}>{id} </a>)}</p>
      )}
      <form className="filters" onSubmit={apply} aria-label="Filter runs">
        <label>Spec <input value={draft.spec} onChange={(e) => setDraft({ ...draft, spec: e.target.value })} placeholder="name" /></label>
        <label>Tool <input value={draft.tool} onChange={(e) => setDraft({ ...draft, tool: e.target.value })} placeholder="ping, iperf3…" /></label>
        <label>Status
          <select value={draft.status} onChange={(e) => setDraft({ ...draft, status: e.target.value })}>
            <option value="">any</option><option>succeeded</option><option>failed</option><option>interrupted</option>
          </select>
        </label>
        <label>Since <input type="date" value={draft.since} onChange={(e) => setDraft({ ...draft, since: e.target.value })} /></label>
        <button type="submit">Filter</button>
      </form>
      <Loaded state={runs} what="runs">{(list) => (
        list.runs.length === 0 ? <p className="muted">No stored runs{filter.spec || filter.tool || filter.status || filter.since ? ' match these filters' : ' yet — start one from New comparison'}.</p> : (
          <>
            <p className="muted small" data-testid="runs-count">Showing {list.runs.length} of {list.total} runs.</p>
            <div className="table-scroll tall">
              <table className="data-table" data-testid="runs-table">
                <thead><tr><th scope="col"><span className="sr-only">Compare</span></th><th scope="col">run</th><th scope="col">spec</th><th scope="col">status</th><th scope="col">started</th><th scope="col">duration</th><th scope="col">tools</th><th scope="col">trials</th><th scope="col">samples</th></tr></thead>
                <tbody>
                  {list.runs.map((r) => (
                    <tr key={r.runId}>
                      <td><input type="checkbox" checked={picked.includes(r.runId)} onChange={() => toggle(r.runId)} aria-label={`Select ${r.runId} to compare`} /></td>
                      <td><a href={href('run', r.runId)}><code>{r.runId}</code></a></td>
                      <td>{r.name}</td><td><StatusBadge status={r.status} /></td><td>{formatTime(r.startedAt)}</td>
                      <td>{formatDuration(r.durationMs)}</td><td>{r.tools.join(', ')}</td><td>{r.trials}</td><td>{r.samples}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {list.total > list.runs.length && <button type="button" onClick={() => setFilter({ ...filter, limit: (filter.limit ?? PAGE) + PAGE * 5 })}>Show more</button>}
          </>
        )
      )}</Loaded>
    </section>
  );
}
