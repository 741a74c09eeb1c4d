import type { DatabaseSync } from './sqlite.js';

/** One line of `results list`. */
export interface StoredRunSummary {
  readonly runId: string;
  /** Spec name. */
  readonly name: string;
  readonly status: string;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly durationMs: number;
  readonly owner: string;
  readonly netbenchVersion: string;
  readonly tools: readonly string[];
  readonly trials: number;
  readonly samples: number;
  readonly runDir: string;
}

/** A `key=value` label condition. */
export type LabelCondition = readonly [key: string, value: string];

export interface RunFilter {
  /** Spec name. */
  readonly spec?: string;
  /** Runs with at least one trial of this tool. */
  readonly tool?: string;
  /** Runs holding each label (on the run or on any of its samples); values compare as text. */
  readonly labels?: readonly LabelCondition[];
  /** Started at or after. */
  readonly since?: Date;
  /** Started before. */
  readonly until?: Date;
  /** Newest first, at most this many (0 or absent: all). */
  readonly limit?: number;
}

export interface RunList {
  readonly runs: StoredRunSummary[];
  /** Runs matching the filter, before `limit`. */
  readonly total: number;
}

interface RunListRow {
  run_id: string;
  name: string;
  status: string;
  started_at: number;
  finished_at: number;
  owner: string;
  netbench_version: string;
  tools: string;
  trial_count: number;
  sample_count: number;
  run_dir: string;
}

/** `WHERE` clause and parameters of a filter (shared by the list and its count). */
function where(filter: RunFilter): { sql: string; params: (string | number)[] } {
  const parts: string[] = [];
  const params: (string | number)[] = [];
  if (filter.spec !== undefined) {
    parts.push('r.name = ?');
    params.push(filter.spec);
  }
  if (filter.tool !== undefined) {
    parts.push('r.run_pk IN (SELECT run_pk FROM trials WHERE tool = ?)');
    params.push(filter.tool);
  }
  for (const [key, value] of filter.labels ?? []) {
    parts.push('r.run_pk IN (SELECT run_pk FROM labels WHERE key = ? AND value = ?)');
    params.push(key, value);
  }
  if (filter.since) {
    parts.push('r.started_at >= ?');
    params.push(filter.since.getTime());
  }
  if (filter.until) {
    parts.push('r.started_at < ?');
    params.push(filter.until.getTime());
  }
  return { sql: parts.length > 0 ? `WHERE ${parts.join(' AND ')}` : '', params };
}

/** Runs matching a filter, newest first. */
export function listRuns(db: DatabaseSync, filter: RunFilter = {}): RunList {
  const { sql, params } = where(filter);
  const limit = filter.limit && filter.limit > 0 ? filter.limit : -1;
  const rows = db
    .prepare(`SELECT run_id, name, status, started_at, finished_at, owner, netbench_version, tools, trial_count, sample_count, run_dir
    FROM runs r ${sql} ORDER BY r.started_at DESC, r.run_pk DESC LIMIT ?`)
    .all(...params, limit) as unknown as RunListRow[];
  const total = limit < 0 || rows.length < limit ? rows.length : (db.prepare(`SELECT count(*) AS n FROM runs r ${sql}`).get(...params) as { n: number }).n;
  return {
    total,
    runs: rows.map((r) => ({
      runId: r.run_id,
      name: r.name,
      status: r.status,
      startedAt: new Date(r.started_at).toISOString(),
      finishedAt: new Date(r.finished_at).toISOString(),
      durationMs: r.finished_at - r.started_at,
      owner: r.owner,
      netbenchVersion: r.netbench_version,
      tools: r.tools === '' ? [] : r.tools.split(','),
      trials: r.trial_count,
      samples: r.sample_count,
      runDir: r.run_dir,
    })),
  };
}
