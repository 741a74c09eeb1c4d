import { statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import { NetbenchError } from '@netbench/plugin-api';

/** A results store problem: the message names the file and says what was (not) changed. */
export class StoreError extends NetbenchError {
  override readonly name: string = 'StoreError';
  constructor(
    message: string,
    readonly path: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

// SQLite primary result codes (the low byte of an extended code).
const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;
const SQLITE_READONLY = 8;
const SQLITE_IOERR = 10;
const SQLITE_CORRUPT = 11;
const SQLITE_FULL = 13;
const SQLITE_CANTOPEN = 14;
const SQLITE_NOTADB = 26;

interface SqliteErrorShape {
  readonly code?: string;
  readonly errcode?: number;
  readonly errstr?: string;
  readonly message?: string;
}

/**
 * Turn a SQLite error into a `StoreError` that says what happened in words
 * (disk full, locked, not a database); `doing` names the operation, e.g.
 * "storing run X". Any other error passes through unchanged.
 */
export function storeError(error: unknown, path: string, doing: string): unknown {
  if (error instanceof NetbenchError) return error;
  const e = error as SqliteErrorShape;
  if (typeof e?.errcode !== 'number') {
    const code = e?.code;
    if (code === 'ENOSPC') return new StoreError(`${doing}: the disk holding ${path} is full; nothing was changed in the store`, path, { cause: error });
    if (code === 'EACCES' || code === 'EPERM') return new StoreError(`${doing}: no permission to use ${path}`, path, { cause: error });
    if (typeof code === 'string' && code.startsWith('E')) return new StoreError(`${doing}: ${e.message ?? code} (${path})`, path, { cause: error });
    return error;
  }
  const detail = e.message ?? e.errstr ?? 'unknown SQLite error';
  switch (e.errcode & 0xff) {
    case SQLITE_FULL:
      return new StoreError(`${doing}: the disk holding ${path} is full (${detail}); the transaction was rolled back, what was stored before is intact`, path, { cause: error });
    case SQLITE_IOERR:
      // SQLite reports some writes into a full disk (the WAL index) as I/O errors: say which it was.
      if (diskFull(path))
        return new StoreError(`${doing}: the disk holding ${path} is full (${detail}); the transaction was rolled back, what was stored before is intact`, path, { cause: error });
      return new StoreError(`${doing}: I/O error on ${path} (${detail}); the transaction was rolled back`, path, { cause: error });
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return new StoreError(`${doing}: ${path} stayed locked by another process beyond the busy timeout (${detail}); nothing was changed`, path, { cause: error });
    case SQLITE_READONLY:
      return new StoreError(`${doing}: ${path} is read-only (${detail})`, path, { cause: error });
    case SQLITE_CANTOPEN:
      return new StoreError(`${doing}: cannot open ${path}: its folder is missing or not writable (${detail})`, path, { cause: error });
    case SQLITE_NOTADB:
      return new StoreError(`${path} is not a SQLite database, so not a netbench results store; nothing was changed (point --db or NETBENCH_DB elsewhere)`, path, { cause: error });
    case SQLITE_CORRUPT:
      return new StoreError(`${path} is damaged (${detail}); nothing was changed`, path, { cause: error });
    default:
      return new StoreError(`${doing}: ${detail} (${path})`, path, { cause: error });
  }
}

/** Less than 64 KiB free where the store lives. */
function diskFull(path: string): boolean {
  try {
    const fs = statfsSync(dirname(path));
    return fs.bavail * fs.bsize < 64 * 1024;
  } catch {
    return false;
  }
}
