import { readdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { readUserProject } from './user-project.js';

/**
 * Keep in `<dir>/tarballs` exactly the tarballs installed plugins came from:
 * delete every other one (an older version replaced by `add`, a plugin
 * `remove`d or refused). Returns the names deleted.
 */
export async function pruneTarballs(dir: string): Promise<string[]> {
  const folder = join(dir, 'tarballs');
  const files = await readdir(folder).catch(() => [] as string[]);
  const used = new Set(
    Object.values(readUserProject(dir).dependencies ?? {})
      .filter((spec) => spec.startsWith('file:'))
      .map((spec) => basename(spec.slice('file:'.length))),
  );
  const unused = files.filter((file) => !used.has(file));
  await Promise.all(unused.map((file) => rm(join(folder, file), { force: true })));
  return unused;
}
