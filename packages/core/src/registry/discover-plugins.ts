import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { declaration, impliedPluginName, PLUGIN_PACKAGE_RE, type PluginKind } from '@netbench/plugin-api';
import type { PluginDescriptor } from './types.js';

const BUILTIN_PREFIX = '@netbench/plugin-';
export { declaration, impliedPluginName, PLUGIN_PACKAGE_RE };

/** A package named like a plugin whose package.json does not say its kind: only importing it tells. */
export interface UndeclaredPackage {
  readonly packageName: string;
  readonly version: string;
  readonly dir: string;
}

export interface DiscoveredPackages {
  /** Plugins whose kind and name are known without importing them. */
  readonly plugins: PluginDescriptor[];
  /** `netbench-plugin-*` packages that declare nothing (see `probePlugins`). */
  readonly undeclared: UndeclaredPackage[];
}

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
  return discoverPackages(searchDirs).plugins;
}

/**
 * Like `discoverPlugins`, and also the `netbench-plugin-*` packages that do
 * not declare themselves. A project (or the user plugin folder) may declare
 * them for their packages in its own package.json,
 * `"netbench": { "plugins": { "<package>": { "kind": ..., "name": ... } } }`
 * (what `netbench plugins add` records after importing one once).
 */
export function discoverPackages(searchDirs: readonly string[]): DiscoveredPackages {
  const found = new Map<string, PluginDescriptor>();
  const undeclared = new Map<string, UndeclaredPackage>();
  const seenModules = new Set<string>();
  const add = (descriptor: PluginDescriptor) => {
    const key = `${descriptor.kind}\u0000${descriptor.name}`;
    if (!found.has(key)) found.set(key, descriptor);
  };
  for (const start of searchDirs) {
    for (const modules of nodeModulesChain(resolve(start))) {
      if (seenModules.has(modules)) continue;
      seenModules.add(modules);
      const declarations = projectDeclarations(dirname(modules));
      for (const dir of packageDirs(modules)) {
        const descriptor = describePackage(dir);
        if (descriptor) {
          add(descriptor);
          continue;
        }
        const pkg = undeclaredPackage(dir);
        if (!pkg) continue;
        const declared = declarations.get(pkg.packageName);
        if (declared) add({ ...declared, packageName: pkg.packageName, version: pkg.version, dir, builtin: false });
        else if (!undeclared.has(pkg.packageName)) undeclared.set(pkg.packageName, pkg);
      }
    }
  }
  return { plugins: [...found.values()], undeclared: [...undeclared.values()] };
}

/** A `netbench-plugin-*` package without a `netbench` declaration. */
function undeclaredPackage(dir: string): UndeclaredPackage | undefined {
  const pkg = readPackageJson(dir);
  if (!pkg || typeof pkg.name !== 'string' || !PLUGIN_PACKAGE_RE.test(pkg.name) || pkg.netbench !== undefined) return undefined;
  return { packageName: pkg.name, version: typeof pkg.version === 'string' ? pkg.version : '0.0.0', dir };
}

/** `"netbench": { "plugins": { "<package>": { kind, name } } }` of the project owning a node_modules folder. */
function projectDeclarations(projectDir: string): Map<string, { kind: PluginKind; name: string }> {
  const out = new Map<string, { kind: PluginKind; name: string }>();
  const declared = (readPackageJson(projectDir)?.netbench as { plugins?: unknown } | undefined)?.plugins;
  if (typeof declared !== 'object' || declared === null) return out;
  for (const [packageName, value] of Object.entries(declared)) {
    const parsed = declaration(value);
    if (parsed) out.set(packageName, parsed);
  }
  return out;
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
  if (!pkg || typeof pkg.name !== 'string') return undefined;
  const declared = declaration(pkg.netbench);
  if (!declared) return undefined;
  return {
    ...declared,
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
