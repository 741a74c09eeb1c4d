// A publisher's file (json, csv) is written as the runner, often root, to a
// path a spec names: it stays in the run folder, never through a link, and
// is owner-only whatever was there before.
import { constants } from 'node:fs';
import { lstat, mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { NetbenchError } from '../errors/index.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../run-id/private-dir.js';

/**
 * Write `content` to `path` in the run folder (`defaultName` when unset): a
 * relative path is inside `runDir`, and a path that leaves it is refused.
 * Folders on the way are created `0700`; one that is a symbolic link (or not
 * a folder) is refused. The file is written to a new file beside it (created
 * exclusively, `0600`, not following links) and renamed over the target: an
 * existing file or link there is replaced, never written through, and
 * readers never see half a file. Returns the file's path.
 */
export async function writePublisherFile(runDir: string, path: string | undefined, defaultName: string, content: string, what: string): Promise<string> {
  const target = resolve(runDir, path ?? defaultName);
  const inside = relative(runDir, target);
  if (inside === '' || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
    throw new NetbenchError(`${what} file ${path}: outside the run folder ${runDir}; a publisher writes only in its run's folder (a relative path is inside it)`);
  }
  let dir = runDir;
  for (const part of dirname(inside)
    .split(sep)
    .filter((p) => p !== '.' && p !== '')) {
    dir = join(dir, part);
    await mkdir(dir, { mode: PRIVATE_DIR_MODE }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
    const stat = await lstat(dir);
    if (!stat.isDirectory())
      throw new NetbenchError(
        `${what} file ${path}: ${dir} is ${stat.isSymbolicLink() ? 'a symbolic link' : 'not a folder'}; publisher files are written only through real folders of the run folder`,
      );
  }
  const temporary = join(dirname(target), `.${basename(target)}.${process.pid}.${Date.now()}.tmp`);
  const handle = await open(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, PRIVATE_FILE_MODE);
  try {
    // The umask may have taken bits off; never adds any, but be exact.
    await handle.chmod(PRIVATE_FILE_MODE);
    await handle.writeFile(content);
  } catch (error) {
    await handle.close();
    await rm(temporary, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw new NetbenchError(`${what} file ${path ?? defaultName}: ${(error as Error).message}`, { cause: error });
  }
  return target;
}
