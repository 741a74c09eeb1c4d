// A file a spec names (a wrk Lua script) is code or data the run hands on to
// a tool, often as root and to another host: it is read only from under the
// spec's folder, only when it is the runner's own regular file.
import { constants } from 'node:fs';
import { open, readlink, realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { NetbenchError } from '../errors/index.js';

/**
 * Read `path` (relative to `specDir`, or absolute) as UTF-8. Refused, with a
 * message naming `what` and the path: no spec folder known; a file outside
 * the spec folder (also through a symbolic link, of the file or of a folder
 * on the way); a symbolic link; anything but a regular file (a FIFO, a
 * device, a folder); a file of another user than this process's; a file
 * others may write; a file with other hard links (another name elsewhere).
 */
export async function readSpecFile(path: string, specDir: string | undefined, what: string): Promise<string> {
  const fail = (why: string): never => {
    throw new NetbenchError(`${what} ${path}: ${why}`);
  };
  if (specDir === undefined) fail('this engine does not say where the spec is; files a spec names are read only from under its folder');
  const folder = await realpath(specDir!).catch((error: Error) => fail(`the spec's folder ${specDir}: ${error.message}`));
  const full = resolve(specDir!, path);
  // O_NOFOLLOW: the file itself may not be a link; O_NONBLOCK: a FIFO must not hang the open.
  const handle = await open(full, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch((error: NodeJS.ErrnoException) =>
    fail(error.code === 'ELOOP' ? "is a symbolic link (name the file itself, under the spec's folder)" : error.message),
  );
  try {
    // Where the open file really is (no race with a folder swapped for a link between a check and the open).
    const opened = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => realpath(full));
    const inside = relative(folder, opened);
    if (inside === '' || inside.startsWith(`..${sep}`) || inside === '..' || isAbsolute(inside)) fail(`is not under the spec's folder ${folder} (a spec's files must be there)`);
    const stat = await handle.stat();
    if (!stat.isFile()) fail('is not a regular file');
    const uid = process.getuid?.();
    if (uid !== undefined && stat.uid !== uid) fail(`belongs to uid ${stat.uid}, not to the user running netbench (uid ${uid})`);
    if ((stat.mode & 0o022) !== 0) fail(`others may write it (mode ${(stat.mode & 0o777).toString(8)}); chmod go-w it`);
    if (stat.nlink > 1) fail("has other hard links (another name, maybe outside the spec's folder)");
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}
