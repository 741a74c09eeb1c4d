import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';

/**
 * Where a plugin was declared: `cli` (a dependency of the netbench CLI or
 * desktop app itself), `user` (`$NETBENCH_HOME/plugins`, what `netbench
 * plugins add` installs), `project` (a dependency in the package.json of the
 * project netbench runs in).
 */
export type RootOrigin = 'cli' | 'user' | 'project';

/** A package.json whose dependencies are the plugins netbench may load. */
export interface PluginRoot {
  /** The folder to start from; its nearest package.json (this folder or above) is the root's manifest. */
  readonly dir: string;
  readonly origin: RootOrigin;
}

/** A project folder, or a declared package's installed copy, that was not used, and why (shown by `netbench plugins list`). */
export interface RootProblem {
  readonly dir: string;
  readonly reason: string;
}

/** A root as given: a plain folder is the netbench installation's own (`cli`). */
export type RootInput = string | PluginRoot;

export function toRoot(input: RootInput): PluginRoot {
  return typeof input === 'string' ? { dir: input, origin: 'cli' } : input;
}

/**
 * The folder holding the nearest package.json at or above `start`, or
 * undefined. For `project` roots the walk stops at the first package.json,
 * like npm.
 */
export function manifestDir(start: string): string | undefined {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * Why a project's package.json cannot be trusted to name code netbench runs,
 * or undefined when it can: it and its folder must belong to this user (or
 * root) and be writable by no one else. A `package.json` in a shared
 * world-writable folder like /tmp is someone else's choice, not the user's.
 */
export function untrustedReason(projectDir: string): string | undefined {
  for (const path of [projectDir, join(projectDir, 'package.json')]) {
    const reason = foreignReason(path);
    if (reason) return reason;
  }
  return undefined;
}

/** Why someone other than this user (or root) could have put or changed what `path` holds, or undefined. */
function foreignReason(path: string, options: { stickyOk?: boolean } = {}): string | undefined {
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  let stat;
  try {
    stat = statSync(path);
  } catch (error) {
    return `cannot read ${path}: ${(error as Error).message}`;
  }
  if (uid !== undefined && stat.uid !== uid && stat.uid !== 0) return `${path} belongs to another user (uid ${stat.uid})`;
  // A sticky folder (/tmp) lets others add entries but not replace ours.
  if ((stat.mode & 0o022) !== 0 && !(options.stickyOk && (stat.mode & 0o1000) !== 0)) return `${path} is writable by ${(stat.mode & 0o002) !== 0 ? 'everyone' : 'its group'}`;
  return undefined;
}

/** Where a declared package was found: its folder, or the installed copy Node would use and why it is not. */
export type PackageLocation = { readonly dir: string; readonly problem?: undefined } | { readonly dir: string; readonly problem: string };

/**
 * The folder of an installed package as Node would resolve `name` from
 * `fromDir` (its `node_modules`, then each ancestor's), or undefined when
 * none has it. Only a name a trusted package.json declares is ever
 * resolved, and only a copy the user installed is used: the `node_modules`
 * folder it is found in, its scope folder and the package's own folder and
 * package.json must belong to this user (or root) and be writable by no one
 * else, and the folder holding that `node_modules` must be too, or be sticky
 * (as /tmp). Otherwise the copy comes back with a `problem` and is not
 * loaded; the search does not go on above it, as Node would not either.
 */
export function resolvePackageDir(name: string, fromDir: string): PackageLocation | undefined {
  for (let dir = resolve(fromDir); ; dir = dirname(dir)) {
    const modules = join(dir, 'node_modules');
    const candidate = join(modules, name);
    if (existsSync(join(candidate, 'package.json'))) {
      // Without POSIX owners and modes (Windows: ACLs) there is nothing to check here.
      if (typeof process.getuid !== 'function') return { dir: candidate };
      const scope = name.startsWith('@') ? [join(modules, name.split('/')[0]!)] : [];
      const problem =
        foreignReason(dir, { stickyOk: true }) ??
        [modules, ...scope, candidate, join(candidate, 'package.json')].map((path) => foreignReason(path)).find((reason) => reason !== undefined);
      return problem ? { dir: candidate, problem: `${name} was not installed by you: ${problem}` } : { dir: candidate };
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * The netbench CLI's own folder, resolved from this core (the CLI depends on
 * core, and on the built-in plugins); undefined when core is used without it.
 */
export function cliPackageDir(): string | undefined {
  try {
    return dirname(createRequire(import.meta.url).resolve('@netbench/cli/package.json'));
  } catch {
    return undefined;
  }
}
