import type { NetbenchEvent } from '@netbench/plugin-api';
import { formatQuantity, metricName } from '@netbench/report/echarts';
import type { ChartSpec } from '@netbench/results';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { RunEnded } from '../../shared/bridge-types';
import { ChartGrid } from '../charts/chart-view';
import { bridge, call } from '../lib/bridge-client';
import { formatDuration } from '../lib/format';
import { href } from '../lib/route';
import { StatusBadge } from '../lib/status';

const PHASES = ['provision', 'prepare', 'execute', 'teardown', 'publish'] as const;
/** Live charts are refetched at most this often while samples arrive. */
const CHART_INTERVAL_MS = 750;

/** A run as it happens: phases, hosts, trial i/N with ETA, charts filling in; Cancel tears down and keeps results. */
export function LiveRunPage({ runId }: { runId: string }) {
  const [events, setEvents] = useState<NetbenchEvent[]>([]);
  const [samples, setSamples] = useState(0);
  /** The running trial's latest live value (`trial-interval`), e.g. `RTT 62 µs`. */
  const [current, setCurrent] = useState<{ trial: string; metric: string; value: string } | undefined>();
  const [ended, setEnded] = useState<RunEnded | undefined>();
  const [charts, setCharts] = useState<readonly ChartSpec[]>([]);
  const [error, setError] = useState<string | undefined>();
  const [cancelling, setCancelling] = useState(false);
  const [now, setNow] = useState(Date.now());
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const lastFetch = useRef(0);

  const refreshCharts = () => {
    if (pending.current) return;
    const wait = Math.max(0, lastFetch.current + CHART_INTERVAL_MS - Date.now());
    pending.current = setTimeout(() => {
      pending.current = undefined;
      lastFetch.current = Date.now();
      call('liveCharts', { runId }).then(setCharts, () => {
        /* the next sample retries */
      });
    }, wait);
  };

  useEffect(() => {
    let live = true;
    // Subscribe first, then load the snapshot: events in between are deduplicated by seq.
    const off = bridge.onEvent((e) => {
      if (e.runId !== runId || !live) return;
      if (e.kind === 'run-ended') {
        setEnded(e.ended);
        refreshCharts();
        return;
      }
      if (e.event.type === 'sample') {
        setSamples((n) => n + 1);
        refreshCharts();
      } else if (e.event.type === 'trial-interval') {
        const last = e.event.samples.at(-1);
        if (last) setCurrent({ trial: e.event.trial, metric: metricName(last.metric), value: formatQuantity(last.value, last.unit) });
        refreshCharts();
      } else {
        const event = e.event;
        setEvents((list) => (list.some((x) => x.seq === event.seq && x.type === event.type) ? list : [...list, event]));
      }
    });
    call('liveRun', { runId }).then(
      (snapshot) => {
        if (!live) return;
        setEvents((list) => mergeEvents(snapshot.events, list));
        if (snapshot.ended) setEnded(snapshot.ended);
        refreshCharts();
      },
      (e: unknown) => setError((e as Error).message),
    );
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => {
      live = false;
      off();
      clearInterval(timer);
      if (pending.current) clearTimeout(pending.current);
    };
  }, [runId]);

  const view = useMemo(() => summarise(events, now), [events, now]);
  const cancel = async () => {
    setCancelling(true);
    try {
      await call('cancelRun', { runId });
    } catch (e) {
      setError((e as Error).message);
      setCancelling(false);
    }
  };

  return (
    <section aria-labelledby="live-title" data-testid="live-page">
      <div className="page-head">
        <h1 id="live-title">
          Run {view.name ?? ''} <code className="small">{runId}</code>
        </h1>
        {ended ? (
          <StatusBadge status={ended.status} />
        ) : (
          <button type="button" className="danger" onClick={() => void cancel()} disabled={cancelling} data-testid="cancel-button">
            {cancelling ? 'Cancelling — tearing down…' : 'Cancel (tear down, keep results)'}
          </button>
        )}
      </div>
      {error && (
        <p className="panel panel-error" role="alert">
          {error}
        </p>
      )}
      <div className="live-grid">
        <div className="panel">
          <h2>Progress</h2>
          <ol className="phases">
            {PHASES.map((p) => (
              <li key={p} className={`phase phase-${view.phases[p] ?? 'waiting'}`}>
                {p}
                <span className="small muted"> {view.phases[p] ?? 'waiting'}</span>
              </li>
            ))}
          </ol>
          <p role="status" aria-live="polite" data-testid="trial-progress">
            {view.total > 0 ? `Trial ${Math.min(view.current, view.total)}/${view.total}` : 'Starting…'}
            {view.currentName ? ` — ${view.currentName}` : ''}
            {!ended && view.etaMs !== undefined ? ` · ETA ${formatDuration(view.etaMs)}` : ''}
            {` · ${samples} samples`}
            {view.elapsedMs !== undefined ? ` · ${formatDuration(view.elapsedMs)} elapsed` : ''}
          </p>
          <progress max={Math.max(1, view.total)} value={view.finished + (ended ? 0 : view.fraction)} aria-label="Trials finished" data-testid="trial-bar" />
          {!ended && view.running && (
            <p className="live-now" data-testid="live-now">
              <span className="muted small">
                {view.running.name} {Math.round(view.running.fraction * 100)}%{view.running.message ? ` · ${view.running.message}` : ''}
              </span>
              {current?.trial === view.running.trial && (
                <>
                  <br />
                  <span className="small">{current.metric} now</span>
                  <br />
                  <strong className="live-value" aria-live="off">
                    {current.value}
                  </strong>
                </>
              )}
            </p>
          )}
          <h3>Hosts</h3>
          <ul className="plain small" data-testid="hosts">
            {view.hosts.length === 0 ? <li className="muted">none ready yet</li> : view.hosts.map((h) => <li key={h}>✓ {h}</li>)}
          </ul>
          {view.messages.length > 0 && (
            <>
              <h3>Messages</h3>
              <ul className="plain small">
                {view.messages.map((m, i) => (
                  <li key={i} className={m.error ? 'error-text' : 'warn-text'}>
                    {m.text}
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
        <div className="live-charts">
          <h2>Live charts</h2>
          {charts.length === 0 ? <p className="muted">Charts appear as samples arrive (latency CDF, throughput over time).</p> : <ChartGrid charts={charts} />}
        </div>
      </div>
      {ended && <EndedPanel runId={runId} ended={ended} />}
    </section>
  );
}

function EndedPanel({ runId, ended }: { runId: string; ended: RunEnded }) {
  const ok = ended.status === 'succeeded';
  return (
    <div className={`panel ${ok ? '' : 'panel-error'}`} role={ok ? 'status' : 'alert'} data-testid="run-ended">
      <h2>
        {ok ? 'Finished' : ended.status === 'refused' ? 'Refused — nothing was created' : ended.status === 'interrupted' ? 'Cancelled — torn down, results so far kept' : 'Failed'}
      </h2>
      <p>
        Exit code {ended.exitCode} · {ended.samples} samples
        {ended.runDir ? (
          <>
            {' '}
            · <code>{ended.runDir}</code>
          </>
        ) : null}
      </p>
      {ended.errors.length > 0 && (
        <>
          <h3>Why</h3>
          <ul>
            {ended.errors.map((e) => (
              <li key={e}>
                <pre className="wrap">{e}</pre>
              </li>
            ))}
          </ul>
        </>
      )}
      {ended.failedTrials.length > 0 && (
        <>
          <h3>Failed trials</h3>
          <ul>
            {ended.failedTrials.map((t) => (
              <li key={t.id}>
                <code>{t.id}</code>: {t.error}
              </li>
            ))}
          </ul>
        </>
      )}
      <h3>Torn down</h3>
      {ended.teardown.length === 0 ? (
        <p className="muted">Nothing was created.</p>
      ) : (
        <table className="data-table compact" data-testid="teardown">
          <thead>
            <tr>
              <th scope="col">resource</th>
              <th scope="col">id</th>
              <th scope="col">host</th>
              <th scope="col">state</th>
            </tr>
          </thead>
          <tbody>
            {ended.teardown.map((t) => (
              <tr key={`${t.plugin}/${t.type}/${t.id}`} className={t.state === 'deleted' ? '' : 'error-text'}>
                <td>
                  {t.plugin} {t.type}
                </td>
                <td>
                  <code>{t.id}</code>
                </td>
                <td>{t.host ?? '—'}</td>
                <td>
                  {t.state}
                  {t.error ? `: ${t.error}` : ''}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {ended.teardown.some((t) => t.state !== 'deleted') && (
        <p className="error-text">
          Some resources may be left: run <code>netbench cleanup {runId}</code>.
        </p>
      )}
      {ended.status !== 'refused' && (
        <p>
          <a className="button primary" href={href('run', runId)}>
            Open the results
          </a>
        </p>
      )}
    </div>
  );
}

function mergeEvents(a: readonly NetbenchEvent[], b: readonly NetbenchEvent[]): NetbenchEvent[] {
  const seen = new Set(a.map((e) => `${e.seq}:${e.type}`));
  return [...a, ...b.filter((e) => !seen.has(`${e.seq}:${e.type}`))].sort((x, y) => x.seq - y.seq);
}

interface LiveView {
  name?: string;
  phases: Partial<Record<(typeof PHASES)[number], 'running' | 'done' | 'failed'>>;
  hosts: string[];
  total: number;
  current: number;
  finished: number;
  currentName?: string;
  /** The trial running now, how far it is (trial-progress) and what it said. */
  running?: { trial: string; name: string; fraction: number; message?: string };
  /** Fraction of the running trial done, for the progress bar. */
  fraction: number;
  etaMs?: number;
  elapsedMs?: number;
  messages: { text: string; error: boolean }[];
}

/** The progress display's state from the event stream (as the CLI's progress line reads it). */
function summarise(events: readonly NetbenchEvent[], now: number): LiveView {
  const view: LiveView = { phases: {}, hosts: [], total: 0, current: 0, finished: 0, fraction: 0, messages: [] };
  let started: number | undefined;
  let estimated = 0;
  let finishedMs = 0;
  let ended: number | undefined;
  for (const e of events) {
    switch (e.type) {
      case 'run-started':
        view.name = e.name;
        view.total = e.trials;
        started = e.time;
        estimated = e.estimatedSeconds * 1000;
        break;
      case 'phase-started':
        view.phases[e.phase] = 'running';
        break;
      case 'phase-finished':
        view.phases[e.phase] = e.ok ? 'done' : 'failed';
        break;
      case 'host-ready':
        view.hosts.push(`${e.host} (${e.cloud}, ${e.address})`);
        break;
      case 'trial-started':
        view.current = e.index + 1;
        view.total = e.total;
        view.currentName = `${e.tool} ${e.test}`;
        view.running = { trial: e.trial, name: view.currentName, fraction: 0 };
        break;
      case 'trial-progress':
        if (view.running?.trial === e.trial) view.running = { ...view.running, fraction: e.fraction, ...(e.message !== undefined ? { message: e.message } : {}) };
        break;
      case 'trial-finished':
        if (view.running?.trial === e.trial) delete view.running;
        view.finished += 1;
        finishedMs += e.durationMs;
        if (e.status === 'failed') view.messages.push({ text: `trial ${e.trial} failed: ${e.error ?? ''}`, error: true });
        break;
      case 'warning':
        view.messages.push({ text: e.message, error: false });
        break;
      case 'error':
        view.messages.push({ text: e.message, error: true });
        break;
      case 'run-finished':
        ended = e.time;
        break;
      default:
        break;
    }
  }
  view.fraction = view.running?.fraction ?? 0;
  if (started !== undefined) {
    view.elapsedMs = (ended ?? now) - started;
    const remaining = view.total - view.finished;
    // After a trial has finished its measured pace predicts the rest better than the plan's estimate.
    view.etaMs = view.finished > 0 ? (finishedMs / view.finished) * remaining : Math.max(0, estimated - view.elapsedMs);
  }
  return view;
}
