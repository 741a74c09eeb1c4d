import { readFileSync, type Stats } from 'node:fs';
import { chmod, lstat, mkdir } from 'node:fs/promises';
import { NetbenchError } from '@netbench/plugin-api';

/**
 * The run's directories in `/dev/shm` (its machine lock, its tunnel ends'
 * keys and pid files) sit in a folder everyone may write in. One a local user
 * made first, under a run id they saw there, would let them read the keys, or
 * point a root cleanup at any process. So netbench uses such a directory only
 * when it is really a directory (not a symbolic link), owned by the user
 * running netbench, and writable by no one else (`exactMode`: that very mode).
 */
export function foreignDirProblem(stats: Stats, exactMode?: number): string | undefined {
  if (stats.isSymbolicLink()) return 'it is a symbolic link';
  if (!stats.isDirectory()) return 'it is not a directory';
  const mode = stats.mode & 0o7777;
  const me = process.geteuid?.();
  if (me !== undefined && stats.uid !== me) return `it is owned by ${userName(stats.uid)} with mode ${octal(mode)}`;
  if (exactMode !== undefined && mode !== exactMode) return `its mode is ${octal(mode)}, not ${octal(exactMode)}`;
  if (exactMode === undefined && (mode & 0o022) !== 0) return `its mode ${octal(mode)} lets others write in it`;
  return undefined;
}

/** What netbench's own directory looks like, for messages. */
export function ownDirRule(exactMode?: number): string {
  const me = process.geteuid?.();
  const owner = me === undefined ? 'the user running netbench' : `the user running netbench (${userName(me)})`;
  return `owned by ${owner}, ${exactMode === undefined ? 'writable by no one else' : `mode ${octal(exactMode)}`}`;
}

/** The refusal: which path, what was found, what netbench expects, what to do. */
export function foreignDirError(path: string, what: string, problem: string, exactMode?: number): NetbenchError {
  return new NetbenchError(
    `refusing ${what} ${path}: ${problem}; netbench makes it itself, ${ownDirRule(exactMode)}. ` +
      `Someone else made this one and could read or change what netbench would put in it: check what it holds, remove it (rm -rf -- ${path}) and try again`,
  );
}

/** Whether `path` is a directory of this user's that no one else may write (false when absent). */
export async function isOwnDir(path: string, exactMode?: number): Promise<boolean> {
  const stats = await lstat(path).catch(() => undefined);
  return stats !== undefined && foreignDirProblem(stats, exactMode) === undefined;
}

/**
 * Make `path` with `mode`, exclusively. When it is there already, resolves to
 * why it is not this user's own (`foreignDirProblem`), the caller's cue to
 * refuse it; undefined when it may be used. Other failures (no parent, a full
 * disk) reject.
 */
export async function claimOwnDir(path: string, mode: number): Promise<string | undefined> {
  try {
    await mkdir(path, { mode });
    // mkdir's mode passes through the umask; this is the directory just made (a sticky parent keeps others from swapping it).
    await chmod(path, mode);
    return undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return foreignDirProblem(await lstat(path));
}

const octal = (mode: number) => `0${mode.toString(8).padStart(3, '0')}`;

/** `name (uid N)` from /etc/passwd, or `uid N` (read when a message needs it: refusals are rare). */
function userName(uid: number): string {
  let name: string | undefined;
  try {
    name = readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .map((line) => line.split(':'))
      .find((f) => f[2] === String(uid))?.[0];
  } catch {
    // No passwd file: the uid alone names the owner.
  }
  return name ? `${name} (uid ${uid})` : `uid ${uid}`;
}
