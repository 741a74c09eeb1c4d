import { basename } from 'node:path';
import type { DatabaseSync } from './sqlite.js';
import { StoreError } from './store-error.js';

export interface StoredRunRef {
  readonly runPk: number;
  readonly runId: string;
  readonly startedAt: number;
}

const LATEST_RE = /^latest(?:~(\d+))?$/;
const LIKE_SPECIAL_RE = /[\\%_]/g;

/**
 * Find a stored run from what a user types: its id, a run folder path,
 * `latest` / `latest~N` (N runs before the newest), or an unambiguous
 * prefix or suffix of an id (the 6-character tag at its end is enough).
 */
export function resolveRunRef(db: DatabaseSync, path: string, ref: string): StoredRunRef {
  const text = ref.includes('/') ? basename(ref.replace(/\/+$/, '')) : ref;
  const pick = 'SELECT run_pk AS runPk, run_id AS runId, started_at AS startedAt FROM runs';
  const exact = db.prepare(`${pick} WHERE run_id = ?`).get(text) as StoredRunRef | undefined;
  if (exact) return { ...exact };
  const latest = LATEST_RE.exec(text);
  if (latest) {
    const back = Number(latest[1] ?? 0);
    const row = db.prepare(`${pick} ORDER BY started_at DESC, run_pk DESC LIMIT 1 OFFSET ?`).get(back) as StoredRunRef | undefined;
    if (!row) throw new StoreError(`${ref}: the store ${path} holds ${back === 0 ? 'no runs' : `fewer than ${back + 1} runs`}`, path);
    return { ...row };
  }
  if (text.length >= 4) {
    const like = text.replace(LIKE_SPECIAL_RE, (c) => `\\${c}`);
    const rows = db
      .prepare(`${pick} WHERE run_id LIKE ? ESCAPE '\\' OR run_id LIKE ? ESCAPE '\\' ORDER BY started_at DESC LIMIT 6`)
      .all(`${like}%`, `%${like}`) as unknown as StoredRunRef[];
    if (rows.length === 1) return { ...rows[0]! };
    if (rows.length > 1) {
      throw new StoreError(
        `${ref} matches several runs (${rows
          .slice(0, 5)
          .map((r) => r.runId)
          .join(', ')}${rows.length > 5 ? ', …' : ''}); give more of the id`,
        path,
      );
    }
  }
  throw new StoreError(`no run ${ref} in the store ${path} (see \`netbench results list\`)`, path);
}
