import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { declaration, impliedPluginName, PLUGIN_PACKAGE_RE, type PluginKind } from '@netbench/plugin-api';
import { manifestDir, type RootInput, type RootOrigin, type RootProblem, resolvePackageDir, toRoot, untrustedReason } from './plugin-roots.js';
import type { PluginDescriptor } from './types.js';

const BUILTIN_PREFIX = '@netbench/plugin-';

export { declaration, impliedPluginName, PLUGIN_PACKAGE_RE };

/** A package named like a plugin whose package.json does not say its kind: only importing it tells. */
export interface UndeclaredPackage {
  readonly packageName: string;
  readonly version: string;
  readonly dir: string;
  readonly origin?: RootOrigin;
  /** The package.json that declares it. */
  readonly declaredBy?: string;
}

export interface DiscoveredPackages {
  /** Plugins whose kind and name are known without importing them. */
  readonly plugins: PluginDescriptor[];
  /** `netbench-plugin-*` packages that declare nothing (see `probePlugins`). */
  readonly undeclared: UndeclaredPackage[];
  /** Project folders and installed packages that were not used (a package.json or folder others can write). */
  readonly ignored: RootProblem[];
}

/** The parts of a package.json discovery reads. */
export interface PackageJson {
  readonly name?: unknown;
  readonly version?: unknown;
  readonly main?: unknown;
  readonly exports?: unknown;
  readonly netbench?: unknown;
  readonly dependencies?: unknown;
  readonly optionalDependencies?: unknown;
  readonly devDependencies?: unknown;
}

/** Every declared plugin of the roots (see `discoverPackages`). */
export function discoverPlugins(roots: readonly RootInput[]): PluginDescriptor[] {
  return discoverPackages(roots).plugins;
}

/**
 * The plugins the roots' package.json files declare: their `dependencies`,
 * `optionalDependencies` and `devDependencies`, and the packages named in
 * `"netbench": { "plugins": { "<package>": { "kind": ..., "name": ... } } }`
 * (what `netbench plugins add` records after importing one once), each
 * resolved as Node resolves it from the root. A package that merely sits in
 * some `node_modules` folder is never considered: what runs is what the user
 * installed or declared. A `project` root's package.json is used only when
 * it and its folder belong to the user and no one else can write them.
 * Reads package.json files only; nothing is imported. When two packages
 * declare the same kind and name, the first root wins.
 */
export function discoverPackages(roots: readonly RootInput[]): DiscoveredPackages {
  const found = new Map<string, PluginDescriptor>();
  const undeclared = new Map<string, UndeclaredPackage>();
  const ignored: RootProblem[] = [];
  const seenManifests = new Set<string>();
  const add = (descriptor: PluginDescriptor) => {
    const key = `${descriptor.kind}\u0000${descriptor.name}`;
    if (!found.has(key)) found.set(key, descriptor);
  };
  for (const root of roots.map(toRoot)) {
    // The user plugin folder is its own project: never a package.json above it.
    const projectDir = root.origin === 'user' ? (existsSync(join(root.dir, 'package.json')) ? root.dir : undefined) : manifestDir(root.dir);
    if (!projectDir || seenManifests.has(projectDir)) continue;
    if (root.origin === 'project') {
      const reason = untrustedReason(projectDir);
      if (reason) {
        ignored.push({ dir: projectDir, reason });
        continue;
      }
    }
    seenManifests.add(projectDir);
    const manifest = readPackageJson(projectDir);
    const declarations = projectDeclarations(manifest);
    const declaredBy = join(projectDir, 'package.json');
    for (const packageName of declaredNames(manifest, declarations)) {
      const location = resolvePackageDir(packageName, projectDir);
      if (!location) continue;
      if (location.problem !== undefined) {
        ignored.push({ dir: location.dir, reason: location.problem });
        continue;
      }
      const { dir } = location;
      const descriptor = describePackage(dir);
      if (descriptor) {
        if (descriptor.packageName === packageName) add({ ...descriptor, origin: originOf(descriptor, root.origin), declaredBy });
        continue;
      }
      const pkg = undeclaredPackage(dir);
      if (!pkg || pkg.packageName !== packageName) continue;
      const declared = declarations.get(pkg.packageName);
      if (declared) add({ ...declared, packageName: pkg.packageName, version: pkg.version, dir, builtin: false, origin: root.origin, declaredBy });
      else if (!undeclared.has(pkg.packageName)) undeclared.set(pkg.packageName, { ...pkg, origin: root.origin, declaredBy });
    }
  }
  return { plugins: [...found.values()], undeclared: [...undeclared.values()], ignored };
}

function originOf(descriptor: PluginDescriptor, origin: RootOrigin): PluginDescriptor['origin'] {
  return descriptor.builtin && origin === 'cli' ? 'built-in' : origin;
}

/** Package names a manifest declares: its dependencies of every kind but peer, and its `netbench.plugins` keys. */
function declaredNames(manifest: PackageJson | undefined, declarations: Map<string, unknown>): string[] {
  const names = new Set<string>();
  for (const field of [manifest?.dependencies, manifest?.optionalDependencies, manifest?.devDependencies]) {
    if (typeof field === 'object' && field !== null) for (const name of Object.keys(field)) names.add(name);
  }
  for (const name of declarations.keys()) names.add(name);
  // A name must be a package name, not a path out of node_modules.
  return [...names].filter((name) => /^(?:@[a-z0-9~][\w.~-]*\/)?[a-z0-9~][\w.~-]*$/i.test(name)).sort();
}

/** A `netbench-plugin-*` package without a `netbench` declaration. */
function undeclaredPackage(dir: string): UndeclaredPackage | undefined {
  const pkg = readPackageJson(dir);
  if (!pkg || typeof pkg.name !== 'string' || !PLUGIN_PACKAGE_RE.test(pkg.name) || pkg.netbench !== undefined) return undefined;
  return { packageName: pkg.name, version: typeof pkg.version === 'string' ? pkg.version : '0.0.0', dir };
}

/** `"netbench": { "plugins": { "<package>": { kind, name } } }` of the project owning a node_modules folder. */
function projectDeclarations(manifest: PackageJson | undefined): Map<string, { kind: PluginKind; name: string }> {
  const out = new Map<string, { kind: PluginKind; name: string }>();
  const declared = (manifest?.netbench as { plugins?: unknown } | undefined)?.plugins;
  if (typeof declared !== 'object' || declared === null) return out;
  for (const [packageName, value] of Object.entries(declared)) {
    const parsed = declaration(value);
    if (parsed) out.set(packageName, parsed);
  }
  return out;
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
