import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { PluginKind } from '../plugin/common.js';
import type { PluginDescriptor } from './types.js';

const KINDS: readonly PluginKind[] = ['cloud', 'tool', 'publisher'];
const BUILTIN_PREFIX = '@netbench/plugin-';

/** The parts of a package.json discovery reads. */
export interface PackageJson {
  readonly name?: unknown;
  readonly version?: unknown;
  readonly main?: unknown;
  readonly exports?: unknown;
  readonly netbench?: unknown;
}

/**
 * Every package that declares itself a netbench plugin in the `node_modules`
 * folders of `searchDirs` and their ancestors (`@scope/*` included), nearest
 * first. Reads package.json files only; nothing is imported. When two
 * packages declare the same kind and name, the first found wins.
 */
export function discoverPlugins(searchDirs: readonly string[]): PluginDescriptor[] {
  const found = new Map<string, PluginDescriptor>();
  const seenModules = new Set<string>();
  for (const start of searchDirs) {
    for (const modules of nodeModulesChain(resolve(start))) {
      if (seenModules.has(modules)) continue;
      seenModules.add(modules);
      for (const dir of packageDirs(modules)) {
        const descriptor = describePackage(dir);
        if (!descriptor) continue;
        const key = `${descriptor.kind}\u0000${descriptor.name}`;
        if (!found.has(key)) found.set(key, descriptor);
      }
    }
  }
  return [...found.values()];
}

/** `<dir>/node_modules` for `dir` and each ancestor, nearest first, as Node resolves packages. */
function nodeModulesChain(start: string): string[] {
  const chain: string[] = [];
  for (let dir = start; ; dir = dirname(dir)) {
    const modules = join(dir, 'node_modules');
    if (existsSync(modules)) chain.push(modules);
    if (dirname(dir) === dir) return chain;
  }
}

function packageDirs(modules: string): string[] {
  const dirs: string[] = [];
  for (const entry of safeReaddir(modules)) {
    if (entry.startsWith('.')) continue;
    if (entry.startsWith('@')) {
      for (const scoped of safeReaddir(join(modules, entry))) dirs.push(join(modules, entry, scoped));
    } else {
      dirs.push(join(modules, entry));
    }
  }
  return dirs;
}

export function readPackageJson(dir: string): PackageJson | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson;
  } catch {
    return undefined;
  }
}

/** A descriptor when the folder's package.json declares a netbench plugin. */
export function describePackage(dir: string): PluginDescriptor | undefined {
  const pkg = readPackageJson(dir);
  if (!pkg || typeof pkg.name !== 'string' || typeof pkg.netbench !== 'object' || pkg.netbench === null) return undefined;
  const { kind, name } = pkg.netbench as { kind?: unknown; name?: unknown };
  if (typeof kind !== 'string' || !KINDS.includes(kind as PluginKind) || typeof name !== 'string' || name === '') return undefined;
  return {
    kind: kind as PluginKind,
    name,
    packageName: pkg.name,
    version: typeof pkg.version === 'string' ? pkg.version : '0.0.0',
    dir,
    builtin: pkg.name.startsWith(BUILTIN_PREFIX),
  };
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}
