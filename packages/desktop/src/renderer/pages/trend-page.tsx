import { useState } from 'react';
import type { LabelPair } from '../../shared/bridge-types';
import { ChartGrid } from '../charts/chart-view';
import { go, href } from '../lib/route';
import { Loaded } from '../lib/status';
import { useCall } from '../lib/use-call';

/** Labels worth a line each (the others: run ids, timestamps, parameters a series is keyed by anyway). */
const SPLIT_KEYS = ['client_zone', 'server_zone', 'zone_pair', 'spec', 'name', 'test', 'tool', 'client_cloud', 'server_cloud', 'machine_type', 'ip_type', 'direction', 'study'];

/**
 * One metric across stored runs by date (`#/trend/METRIC[/SPLIT]`, as
 * `netbench results trend`): a point per run, a line per value of the label
 * it is split by (zone, spec, benchmark name…), runs flagged as a
 * regression, improvement or change against the runs before them ringed.
 */
export function TrendPage({ metric, splitBy, where }: { metric?: string; splitBy?: string; where?: string }) {
  const conditions = parseWhere(where ?? '');
  const page = useCall(
    'trendRuns',
    { ...(metric ? { metric } : {}), ...(splitBy ? { splitBy } : {}), ...(conditions.length > 0 ? { where: conditions } : {}) },
    `${metric ?? ''}/${splitBy ?? ''}/${where ?? ''}`,
  );
  const [text, setText] = useState(where ?? '');
  const to = (m: string | undefined, split: string | undefined, w: string) => {
    if (!m) go('trend');
    else if (w.trim()) go('trend', m, split || '-', w.trim());
    else if (split) go('trend', m, split);
    else go('trend', m);
  };
  const labels = useCall('storeLabels', {}, 'labels');
  const keys = (labels.data?.keys ?? []).map((k) => k.key).filter((k) => SPLIT_KEYS.includes(k));
  return (
    <section aria-labelledby="trend-title" data-testid="trend-page">
      <h1 id="trend-title">
        Trend
        {metric ? (
          <>
            : <code>{metric}</code>
            {splitBy ? (
              <>
                {' '}
                by <code>{splitBy}</code>
              </>
            ) : null}
          </>
        ) : null}
      </h1>
      <Loaded state={page} what="the trend">
        {(p) => (
          <>
            <form className="row" aria-label="What to trend" onSubmit={(e) => e.preventDefault()} data-testid="trend-form">
              <label>
                Metric{' '}
                <select value={metric ?? ''} onChange={(e) => to(e.target.value, splitBy, text)} data-testid="trend-metric">
                  <option value="">choose a metric…</option>
                  {p.metrics.map((m) => (
                    <option key={m.metric} value={m.metric}>
                      {m.metric} ({m.runs} run{m.runs === 1 ? '' : 's'})
                    </option>
                  ))}
                </select>
              </label>
              <label>
                A line per{' '}
                <select value={splitBy ?? ''} disabled={!metric} onChange={(e) => to(metric, e.target.value, text)} data-testid="trend-split">
                  <option value="">— one line —</option>
                  {[...new Set([...keys, ...(splitBy ? [splitBy] : [])])].map((k) => (
                    <option key={k} value={k}>
                      {k}
                    </option>
                  ))}
                </select>
              </label>
              <label>
                Only samples with{' '}
                <input
                  value={text}
                  placeholder="direction=forward test=TCP_RR"
                  onChange={(e) => setText(e.target.value)}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter') to(metric, splitBy, text);
                  }}
                  data-testid="trend-where"
                />
              </label>
              <button type="button" disabled={!metric} onClick={() => to(metric, splitBy, text)}>
                Apply
              </button>
            </form>
            {p.error && (
              <p className="warn-text" role="alert" data-testid="trend-error">
                {p.error.replace(/--where/g, 'a condition')}
              </p>
            )}
            {!p.chart && !p.error && (
              <p className="muted">
                Pick a metric: a point per stored run that has it, by the date the run started, each judged against the runs before it (the median and MAD of the previous 10; a
                robust z beyond 3.5 is a change — a regression when it is the worse way). Split it by zone, spec or benchmark name for a line each.
              </p>
            )}
            {p.summaries && (
              <ul className="plain small" data-testid="trend-summaries">
                {p.summaries.map((s) => (
                  <li key={s.name}>
                    <strong>{s.name}</strong>: {s.summary}
                  </li>
                ))}
                {(p.refused ?? []).map((r) => (
                  <li key={r.name} className="warn-text">
                    {r.name}: left out — {r.error}
                  </li>
                ))}
              </ul>
            )}
            {p.chart && (
              <div className="trend-chart">
                <ChartGrid charts={[p.chart]} />
              </div>
            )}
            {p.chart && (
              <p className="muted small">
                The same numbers as{' '}
                <code>
                  netbench results trend --metric {JSON.stringify(metric)}
                  {conditions.map((c) => ` --where ${c.key}=${c.value}`).join('')}
                </code>
                {splitBy ? (
                  <>
                    {' '}
                    with <code>--where {splitBy}=VALUE</code> for each line
                  </>
                ) : null}
                . <a href={href('results')}>All runs</a>
              </p>
            )}
          </>
        )}
      </Loaded>
    </section>
  );
}

/** `direction=forward test=TCP_RR` as label conditions (words without `=` are left out). */
function parseWhere(text: string): LabelPair[] {
  return text
    .split(/\s+/)
    .filter((w) => w.includes('=') && !w.startsWith('='))
    .map((w) => ({ key: w.slice(0, w.indexOf('=')), value: w.slice(w.indexOf('=') + 1) }));
}
