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

/** A project folder that was not used, and why (shown by `netbench plugins list`). */
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
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  for (const path of [projectDir, join(projectDir, 'package.json')]) {
    let stat;
    try {
      stat = statSync(path);
    } catch (error) {
      return `cannot read ${path}: ${(error as Error).message}`;
    }
    if (uid !== undefined && stat.uid !== uid && stat.uid !== 0) return `${path} belongs to another user (uid ${stat.uid})`;
    if ((stat.mode & 0o022) !== 0) return `${path} is writable by ${(stat.mode & 0o002) !== 0 ? 'everyone' : 'its group'}`;
  }
  return undefined;
}

/**
 * The folder of an installed package as Node would resolve `name` from
 * `fromDir` (its `node_modules`, then each ancestor's), or undefined. Only a
 * name a trusted package.json declares is ever resolved.
 */
export function resolvePackageDir(name: string, fromDir: string): string | undefined {
  for (let dir = resolve(fromDir); ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
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
