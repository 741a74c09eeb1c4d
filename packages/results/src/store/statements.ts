import type { DatabaseSync, StatementSync } from './sqlite.js';

const caches = new WeakMap<DatabaseSync, Map<string, StatementSync>>();

/**
 * A prepared statement, reused for the life of the connection: preparing a
 * multi-row INSERT (hundreds of placeholders) costs more than running it
 * for a small run.
 */
export function prepared(db: DatabaseSync, sql: string): StatementSync {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  let statement = cache.get(sql);
  if (!statement) {
    statement = db.prepare(sql);
    cache.set(sql, statement);
  }
  return statement;
}
