import { formatQuantity, metricName } from '@netbench/report/echarts';
import { useState } from 'react';
import type { HistoryList, ResultsFilter } from '../../shared/bridge-types';
import { formatDuration, formatTime } from '../lib/format';
import { go, href } from '../lib/route';
import { Loaded, StatusBadge } from '../lib/status';
import { useCall } from '../lib/use-call';

const PAGE = 200;
/** Runs one overlay draws at most (one colour each). */
const OVERLAY_RUNS = 12;

type Run = HistoryList['runs'][number];
type SortKey = 'runId' | 'name' | 'status' | 'startedAt' | 'durationMs' | 'tools' | 'trials' | 'samples' | 'headline';
const COLUMNS: { key: SortKey; title: string }[] = [
  { key: 'runId', title: 'run' },
  { key: 'name', title: 'spec' },
  { key: 'status', title: 'status' },
  { key: 'startedAt', title: 'started' },
  { key: 'durationMs', title: 'duration' },
  { key: 'tools', title: 'tools' },
  { key: 'trials', title: 'trials' },
  { key: 'samples', title: 'samples' },
  { key: 'headline', title: 'headline' },
];

/** What a column sorts by: headlines by role then value (throughputs and latencies do not interleave). */
function sortValue(run: Run, key: SortKey): string | number {
  switch (key) {
    case 'tools':
      return run.tools.join(',');
    case 'headline':
      return run.headline ? `${run.headline.role}:${run.headline.metric}:${run.headline.unit}` : '~';
    default:
      return run[key];
  }
}

function sortRuns(runs: readonly Run[], key: SortKey, descending: boolean): Run[] {
  const sign = descending ? -1 : 1;
  return [...runs].sort((a, b) => {
    const x = sortValue(a, key);
    const y = sortValue(b, key);
    let order = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    if (order === 0 && key === 'headline') order = (a.headline?.value ?? 0) - (b.headline?.value ?? 0);
    return sign * order;
  });
}

/**
 * `Throughput 9.38 Gbit/s`: the run's headline metric; `· median of 6` when
 * it summarises several samples (repetitions, pairs, directions), so a
 * three-pair run's number does not read as one pair's.
 */
function headlineText(run: Run): string {
  const h = run.headline;
  if (!h) return '—';
  return `${metricName(h.metric)} ${formatQuantity(h.value, h.unit)}${h.n > 1 ? ` · median of ${h.n}` : ''}`;
}

/** Run ids ordered by start time (then by id, which starts with the time). */
export function byStart(ids: readonly string[], runs: readonly Run[]): string[] {
  const started = (id: string) => runs.find((r) => r.runId === id)?.startedAt ?? '';
  return [...ids].sort((a, b) => started(a).localeCompare(started(b)) || a.localeCompare(b));
}

/** History from the results store, newest first, with filters; pick two runs to compare, or several to overlay. */
export function ResultsPage() {
  const [draft, setDraft] = useState({ spec: '', tool: '', status: '', since: '' });
  const [filter, setFilter] = useState<ResultsFilter>({ limit: PAGE });
  const [picked, setPicked] = useState<string[]>([]);
  const [sort, setSort] = useState<{ key: SortKey; descending: boolean }>({ key: 'startedAt', descending: true });
  const runs = useCall('listRuns', filter, JSON.stringify(filter));
  const active = useCall('activeRuns', {}, 'active');

  const apply = (e: React.FormEvent) => {
    e.preventDefault();
    setFilter({
      limit: filter.limit ?? PAGE,
      ...(draft.spec ? { spec: draft.spec } : {}),
      ...(draft.tool ? { tool: draft.tool } : {}),
      ...(draft.status ? { status: draft.status } : {}),
      ...(draft.since ? { since: draft.since } : {}),
    });
  };
  const sortBy = (key: SortKey) => setSort((now) => ({ key, descending: now.key === key ? !now.descending : key === 'startedAt' }));
  const toggle = (id: string) => setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p.slice(-(OVERLAY_RUNS - 1)), id]));
  // The older run is the baseline, whichever box was ticked first; the compare page can swap them.
  const ordered = byStart(picked, runs.data?.runs ?? []);
  const [older, newer] = ordered;

  return (
    <section aria-labelledby="results-title" data-testid="results-page">
      <div className="page-head">
        <h1 id="results-title">Results</h1>
        <div className="row">
          <a className="button" href={href('compare', 'labels')} data-testid="compare-labels-link">
            Compare label selections…
          </a>
          <button
            type="button"
            className="primary"
            disabled={picked.length !== 2}
            onClick={() => go('compare', older!, newer!)}
            data-testid="compare-button"
            title={picked.length === 2 ? `baseline ${older} (older) → candidate ${newer}` : 'tick exactly two runs'}
          >
            Compare {picked.length}/2 selected{picked.length === 2 ? ' (older as baseline)' : ''}
          </button>
          <button
            type="button"
            disabled={picked.length < 2}
            onClick={() => go('overlay', ...ordered)}
            data-testid="overlay-button"
            title={`one chart per metric, a colour per run (2–${OVERLAY_RUNS} runs, oldest first)`}
          >
            Overlay {picked.length} selected
          </button>
        </div>
      </div>
      {active.data && active.data.length > 0 && (
        <p className="panel">
          Running now:{' '}
          {active.data.map((id) => (
            <a key={id} href={href('live', id)}>
              {id}{' '}
            </a>
          ))}
        </p>
      )}
      <form className="filters" onSubmit={apply} aria-label="Filter runs">
        <label>
          Spec <input value={draft.spec} onChange={(e) => setDraft({ ...draft, spec: e.target.value })} placeholder="name" />
        </label>
        <label>
          Tool <input value={draft.tool} onChange={(e) => setDraft({ ...draft, tool: e.target.value })} placeholder="ping, iperf3…" />
        </label>
        <label>
          Status
          <select value={draft.status} onChange={(e) => setDraft({ ...draft, status: e.target.value })}>
            <option value="">any</option>
            <option>succeeded</option>
            <option>failed</option>
            <option>interrupted</option>
          </select>
        </label>
        <label>
          Since <input type="date" value={draft.since} onChange={(e) => setDraft({ ...draft, since: e.target.value })} />
        </label>
        <button type="submit">Filter</button>
      </form>
      <Loaded state={runs} what="runs">
        {(list) =>
          list.runs.length === 0 ? (
            <p className="muted">No stored runs{filter.spec || filter.tool || filter.status || filter.since ? ' match these filters' : ' yet — start one from New comparison'}.</p>
          ) : (
            <>
              <p className="muted small" data-testid="runs-count">
                Showing {list.runs.length} of {list.total} runs.{list.total > list.runs.length ? ' Sorting orders the runs shown.' : ''}
              </p>
              <div className="table-scroll tall">
                <table className="data-table" data-testid="runs-table">
                  <thead>
                    <tr>
                      <th scope="col">
                        <span className="sr-only">Compare</span>
                      </th>
                      {COLUMNS.map((c) => (
                        <th key={c.key} scope="col" aria-sort={sort.key === c.key ? (sort.descending ? 'descending' : 'ascending') : 'none'}>
                          <button type="button" className="link sort" onClick={() => sortBy(c.key)} data-testid={`sort-${c.key}`}>
                            {c.title}
                            {sort.key === c.key ? (sort.descending ? ' ▼' : ' ▲') : ''}
                          </button>
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {sortRuns(list.runs, sort.key, sort.descending).map((r) => (
                      <tr key={r.runId}>
                        <td>
                          <input type="checkbox" checked={picked.includes(r.runId)} onChange={() => toggle(r.runId)} aria-label={`Select ${r.runId} to compare`} />
                        </td>
                        <td>
                          <a href={href('run', r.runId)}>
                            <code>{r.runId}</code>
                          </a>
                        </td>
                        <td>{r.name}</td>
                        <td>
                          <StatusBadge status={r.status} />
                        </td>
                        <td>{formatTime(r.startedAt)}</td>
                        <td>{formatDuration(r.durationMs)}</td>
                        <td>{r.tools.join(', ')}</td>
                        <td>{r.trials}</td>
                        <td>{r.samples}</td>
                        <td
                          className="headline"
                          title={r.headline ? `median of ${r.headline.n} samples of ${r.headline.metric} (${r.headline.unit})` : 'no throughput, latency or rate metric'}
                        >
                          {headlineText(r)}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              {list.total > list.runs.length && (
                <button type="button" onClick={() => setFilter({ ...filter, limit: (filter.limit ?? PAGE) + PAGE * 5 })}>
                  Show more
                </button>
              )}
            </>
          )
        }
      </Loaded>
    </section>
  );
}
