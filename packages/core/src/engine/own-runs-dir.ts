import { lstat } from 'node:fs/promises';
import { NetbenchError } from '@netbench/plugin-api';

/**
 * A spec's `options.runsDir` is a path its author chose, and the run writes
 * there as the runner (often root): the folder must be a real folder (not a
 * link, which could lead anywhere), the runner's own and writable by no one
 * else (who could otherwise swap the run folder or plant links in it).
 * `--runs-dir` and the default are the runner's own choice and not checked.
 */
export async function assertOwnRunsDir(dir: string): Promise<void> {
  const stat = await lstat(dir);
  const refuse = (why: string) => new NetbenchError(`options.runsDir ${dir}: ${why}; name a folder of yours that only you can write (or pass --runs-dir)`);
  if (stat.isSymbolicLink()) throw refuse('is a symbolic link');
  if (!stat.isDirectory()) throw refuse('is not a folder');
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) throw refuse(`belongs to uid ${stat.uid}, not to the user running netbench (uid ${uid})`);
  if ((stat.mode & 0o022) !== 0) throw refuse(`others may write it (mode ${(stat.mode & 0o777).toString(8)})`);
}
