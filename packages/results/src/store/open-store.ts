import { accessSync, chmodSync, constants, existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { cannotCreate } from '@netbench/plugin-api';
import { folderWritable, openStoreReadOnly } from './read-only-store.js';
import { ResultsStore } from './results-store.js';
import { APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION } from './schema.js';
import { type DatabaseSync, openDatabase } from './sqlite.js';
import { StoreError, storeError } from './store-error.js';
import { defaultStorePath } from './store-path.js';

export interface OpenStoreOptions {
  /** Create the file (and its folder) when it does not exist (default true). */
  readonly create?: boolean;
  /** Milliseconds to wait for another process's write lock (default 15000). */
  readonly busyTimeoutMs?: number;
  /**
   * The caller only reads (`results list/show/export`, `compare`, `trend`):
   * a store that cannot be written (read-only file, folder or mount) is then
   * opened read-only instead of failing.
   */
  readonly readOnly?: boolean;
}

const DEFAULT_BUSY_TIMEOUT_MS = 15_000;

/**
 * Open (or create) the results store. Refuses, before writing anything, a
 * SQLite file that is not a netbench store and a store written by a newer
 * netbench; upgrades an older one with forward migrations in one
 * transaction. WAL journal (readers never block the writer), `synchronous =
 * NORMAL` (durable against a crash of netbench; the last transaction may be
 * lost on power failure) and a busy timeout, so concurrent runs wait for
 * each other instead of failing.
 */
export async function openStore(path: string = defaultStorePath(), options: OpenStoreOptions = {}): Promise<ResultsStore> {
  const file = resolve(path);
  const fresh = !existsSync(file);
  if (fresh) {
    if (options.create === false) throw new StoreError(`no results store at ${file} (runs are stored there as they finish; --db or NETBENCH_DB chooses another)`, file);
    try {
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EROFS' && code !== 'ENOENT') throw storeError(error, file, 'creating the results store');
      throw new StoreError(`creating the results store ${file}: ${cannotCreate(error, dirname(file), 'its folder').message}`, file, { cause: error });
    }
  }
  if (options.readOnly && existsSync(file) && !writable(file)) {
    try {
      return new ResultsStore(await openStoreReadOnly(file, options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS), file);
    } catch (error) {
      throw storeError(error, file, 'opening the results store (read-only)');
    }
  }
  let db: DatabaseSync;
  try {
    db = await openDatabase(file, options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS);
  } catch (error) {
    throw storeError(error, file, 'opening the results store');
  }
  // Owner-only before anything is written; SQLite gives its WAL and shared-memory files the same mode.
  if (fresh) chmodSync(file, 0o600);
  try {
    checkOwnership(db, file);
    const mode = (db.prepare('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode;
    if (mode.toLowerCase() !== 'wal') db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = NORMAL');
    // A big run's pages stay in memory until commit instead of spilling into the WAL mid-transaction.
    db.exec('PRAGMA cache_size = -65536');
    migrate(db, file);
  } catch (error) {
    db.close();
    throw storeError(error, file, 'opening the results store');
  }
  return new ResultsStore(db, file);
}

/** The store file and its folder can be written (SQLite writes its WAL beside the file). */
function writable(file: string): boolean {
  try {
    accessSync(file, constants.W_OK);
  } catch {
    return false;
  }
  // access(2) answers EROFS on a read-only mount, even for root.
  return folderWritable(file);
}

function pragma(db: DatabaseSync, name: string): number {
  const row = db.prepare(`PRAGMA ${name}`).get() as Record<string, number>;
  return Number(row[name]);
}

/** Reads only: a foreign or newer file is refused untouched. */
function checkOwnership(db: DatabaseSync, file: string): void {
  const applicationId = pragma(db, 'application_id');
  const version = pragma(db, 'user_version');
  const objects = (db.prepare('SELECT count(*) AS n FROM sqlite_schema').get() as { n: number }).n;
  const fresh = applicationId === 0 && version === 0 && objects === 0;
  if (applicationId !== APPLICATION_ID && !fresh) {
    throw new StoreError(
      `${file} is a SQLite database but not a netbench results store (application_id 0x${(applicationId >>> 0).toString(16)}, ${objects} schema objects); nothing was changed (point --db or NETBENCH_DB elsewhere)`,
      file,
    );
  }
  if (version > SCHEMA_VERSION) {
    throw new StoreError(
      `${file} was written by a newer netbench (store schema v${version}; this netbench knows up to v${SCHEMA_VERSION}); nothing was changed — upgrade netbench to use it`,
      file,
    );
  }
}

/**
 * Apply the missing migrations in one IMMEDIATE transaction. The version is
 * read again inside it: another process may have migrated meanwhile.
 */
function migrate(db: DatabaseSync, file: string): void {
  if (pragma(db, 'user_version') === SCHEMA_VERSION && pragma(db, 'application_id') === APPLICATION_ID) return;
  db.exec('BEGIN IMMEDIATE');
  try {
    checkOwnership(db, file);
    const current = pragma(db, 'user_version');
    for (const migration of MIGRATIONS) if (migration.version > current) db.exec(migration.sql);
    db.exec(`PRAGMA application_id = ${APPLICATION_ID}`);
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
    db.exec('COMMIT');
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
}
