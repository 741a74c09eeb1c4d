import { accessSync, constants, existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { NetbenchError } from '../errors/index.js';

/** Mode of every folder netbench creates: run folders and the store hold hosts, addresses and specs that are nobody else's business. */
export const PRIVATE_DIR_MODE = 0o700;
/** Mode of every file netbench writes in them. */
export const PRIVATE_FILE_MODE = 0o600;

const WHY: Record<string, string> = {
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOSPC: 'the disk is full',
  ENOTDIR: 'a part of the path is a file',
};

/**
 * Create a folder (and missing parents) owner-only. A folder that cannot be
 * created is a clear error naming it, why, and what to do, instead of a raw
 * `EROFS … mkdir`. `what` names it for the message ("the runs folder").
 */
export async function makePrivateDir(dir: string, what: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  } catch (error) {
    throw cannotCreate(error, dir, what);
  }
}

export function cannotCreate(error: unknown, dir: string, what: string): NetbenchError {
  let code = (error as NodeJS.ErrnoException).code ?? '';
  // A recursive mkdir on a read-only mount says ENOENT; the nearest existing ancestor tells the truth.
  if (code === 'ENOENT') code = ancestorProblem(dir) ?? code;
  const why = WHY[code] ?? (error instanceof Error ? error.message : String(error));
  return new NetbenchError(`cannot create ${what} ${dir}: ${why}; point NETBENCH_HOME (or --runs-dir / --db) at a writable folder`, { cause: error });
}

function ancestorProblem(dir: string): string | undefined {
  for (let parent = dirname(dir); ; parent = dirname(parent)) {
    if (existsSync(parent)) {
      try {
        accessSync(parent, constants.W_OK);
        return undefined;
      } catch (error) {
        return (error as NodeJS.ErrnoException).code;
      }
    }
    if (dirname(parent) === parent) return undefined;
  }
}
