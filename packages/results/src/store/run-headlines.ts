import type { RunRecord } from '@netbench/plugin-api';
import { headlineMetric } from '../charts/metric-roles.js';
import type { DatabaseSync } from './sqlite.js';

/** One number that says what a run found: the median of its headline metric. */
export interface RunHeadline {
  readonly metric: string;
  readonly unit: string;
  /** Median of the metric's samples in the run (every trial, every direction: a summary, not a comparison). */
  readonly value: number;
  /** Samples it is the median of. */
  readonly n: number;
  readonly role: 'throughput' | 'latency' | 'rate';
}

/** Throughput first (what most runs are for), then latency, then rates. */
const ROLE_ORDER = ['throughput', 'latency', 'rate'] as const;

/**
 * The headline of each run: its primary metric by role (`headlineMetric`:
 * throughput, else latency, else a transaction rate), as the median of that
 * metric's whole samples in the run (not a flow's, a stream's or an interval's); a latency-under-load run by its total goodput
 * (`goodput_total`), not a flow's. Runs without such a metric have none.
 * Interval samples (iperf3's `Interval Throughput`) are not headline
 * metrics. Roles are what the run's tools declared (`RunRecord.metrics`),
 * the built-in names otherwise. Three queries per run.
 */
export function runHeadlines(db: DatabaseSync, runIds: readonly string[]): Map<string, RunHeadline> {
  const out = new Map<string, RunHeadline>();
  // Only the declarations of the record: a run's whole record (trials, spec text) is not parsed for one number.
  const pk = db.prepare("SELECT run_pk, json_extract(record, '$.metrics') AS metrics FROM runs WHERE run_id = ?");
  const metrics = db.prepare('SELECT metric, unit, COUNT(*) AS n FROM samples WHERE run_pk = ? GROUP BY metric, unit');
  // A synchronized trial's flows, a stream of a multi-stream tool and an interval are parts of a whole
  // sample beside them (the aggregate, the total): the median is of wholes, not of wholes and parts.
  const values = db.prepare(`SELECT value FROM samples s WHERE run_pk = ? AND metric = ? AND unit = ?
    AND NOT EXISTS (SELECT 1 FROM labels l WHERE l.run_pk = s.run_pk AND l.set_no = s.label_set
      AND ((l.key = 'flow' AND l.value NOT IN ('aggregate', 'summary')) OR l.key = 'stream' OR l.key = 'interval_start'))
    ORDER BY value`);
  for (const runId of runIds) {
    const row = pk.get(runId) as { run_pk: number; metrics: string | null } | undefined;
    if (!row) continue;
    const declared = row.metrics ? (JSON.parse(row.metrics) as RunRecord['metrics']) : undefined;
    let best: { metric: string; unit: string; rank: number } | undefined;
    const all = metrics.all(row.run_pk) as { metric: string; unit: string; n: number }[];
    // A latency-under-load run is its total goodput: its bulk flows' own throughput samples are per flow.
    const goodput = all.find((m) => m.metric === 'goodput_total');
    if (goodput) best = { metric: goodput.metric, unit: goodput.unit, rank: 0 };
    for (const m of goodput ? [] : all) {
      const info = headlineMetric(m.metric, declared);
      if (!info?.primary && info?.role !== 'rate') continue;
      const rank = ROLE_ORDER.indexOf(info.role as (typeof ROLE_ORDER)[number]);
      if (rank < 0 || (best && best.rank <= rank)) continue;
      best = { metric: m.metric, unit: m.unit, rank };
    }
    if (!best) continue;
    const list = (values.all(row.run_pk, best.metric, best.unit) as { value: number }[]).map((v) => v.value);
    if (list.length === 0) continue;
    const mid = Math.floor(list.length / 2);
    const median = list.length % 2 === 1 ? list[mid]! : (list[mid - 1]! + list[mid]!) / 2;
    out.set(runId, { metric: best.metric, unit: best.unit, value: median, n: list.length, role: ROLE_ORDER[best.rank]! });
  }
  return out;
}
