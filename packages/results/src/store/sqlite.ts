import type { DatabaseSync } from 'node:sqlite';
import { NetbenchError } from '@netbench/plugin-api';

export type { DatabaseSync, StatementSync } from 'node:sqlite';

let loaded: typeof import('node:sqlite') | undefined;

/**
 * `node:sqlite`, imported on first use: commands that never touch the store
 * do not pay for it, and an old Node says what it lacks.
 */
export async function loadSqlite(): Promise<typeof import('node:sqlite')> {
  try {
    loaded ??= await import('node:sqlite');
    return loaded;
  } catch (error) {
    throw new NetbenchError(`the results store needs node:sqlite (Node ≥ 22.13; this is ${process.version})`, { cause: error });
  }
}

/** Open a database file; `timeout` is SQLite's busy timeout, so concurrent writers wait instead of failing. */
export async function openDatabase(path: string, busyTimeoutMs: number): Promise<DatabaseSync> {
  const { DatabaseSync } = await loadSqlite();
  return new DatabaseSync(path, { timeout: busyTimeoutMs, enableForeignKeyConstraints: false });
}
