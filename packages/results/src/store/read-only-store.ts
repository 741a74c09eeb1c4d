import { accessSync, constants } from 'node:fs';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { APPLICATION_ID, SCHEMA_VERSION } from './schema.js';
import { type DatabaseSync, loadSqlite } from './sqlite.js';
import { StoreError } from './store-error.js';

/** True when this process may create files in the store's folder (SQLite's WAL and shared-memory files live there). */
export function folderWritable(file: string): boolean {
  try {
    accessSync(dirname(file), constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Open an existing store for reading only, for `results list/show/export`,
 * `compare` and `trend` on a store the user cannot write (a read-only
 * `$NETBENCH_HOME`, a store copied from elsewhere, a read-only mount).
 * When the folder is writable SQLite's ordinary read-only mode is used (it
 * still sees other processes' commits); when it is not, no other netbench
 * can be writing there either, and the file is opened as immutable (SQLite
 * then needs no WAL or shared-memory file beside it).
 */
export async function openStoreReadOnly(file: string, busyTimeoutMs: number): Promise<DatabaseSync> {
  const { DatabaseSync } = await loadSqlite();
  const target = folderWritable(file) ? file : `${pathToFileURL(file).href}?immutable=1`;
  const db = new DatabaseSync(target, { readOnly: true, timeout: busyTimeoutMs, enableForeignKeyConstraints: false });
  try {
    const applicationId = Number((db.prepare('PRAGMA application_id').get() as { application_id: number }).application_id);
    const version = Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
    if (applicationId !== APPLICATION_ID) throw new StoreError(`${file} is not a netbench results store; nothing was changed`, file);
    if (version !== SCHEMA_VERSION) {
      throw new StoreError(
        `${file} has store schema v${version}, this netbench uses v${SCHEMA_VERSION}, and the store cannot be written here to ${version < SCHEMA_VERSION ? 'upgrade it' : 'use it'}; open it once where it is writable${version > SCHEMA_VERSION ? ' with a newer netbench' : ''}`,
        file,
      );
    }
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}
