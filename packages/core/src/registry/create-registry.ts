import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnyPlugin, PluginKind } from '@netbench/plugin-api';
import { impliedPluginName } from '@netbench/plugin-api';
import { discoverPackages, type UndeclaredPackage } from './discover-plugins.js';
import { loadPlugin } from './load-plugin.js';
import { cliPackageDir, type RootInput, type RootProblem } from './plugin-roots.js';
import { type ProbeProblem, probePlugins } from './probe-plugins.js';
import type { PluginDescriptor, PluginResolver } from './types.js';
import { userPluginsDir } from './user-plugins-dir.js';

export interface RegistryOptions {
  /**
   * Roots whose package.json declares the plugins (see `discoverPackages`):
   * a plain folder is the netbench installation's own (its dependencies are
   * the built-ins), `{ dir, origin: 'project' }` the user's project (used only
   * when no one else can write its package.json). Default: the netbench CLI
   * this core belongs to. Packages that are merely present in a
   * `node_modules` folder are never loaded.
   */
  readonly searchDirs?: readonly RootInput[];
  /**
   * The user plugin folder (an npm project), searched after `searchDirs`.
   * Default `$NETBENCH_HOME/plugins`; `false` leaves it out.
   */
  readonly userPlugins?: string | false;
}

/** A resolver over installed packages; also tells which plugin-named packages could not be used. */
export interface PackageRegistry extends PluginResolver {
  /** `netbench-plugin-*` packages without a declaration that failed to import (never thrown: listed). */
  problems(): readonly ProbeProblem[];
  /** Project folders whose package.json was not trusted, with why. */
  ignored(): readonly RootProblem[];
  /**
   * Learn kind and name of every declared `netbench-plugin-*` package that
   * does not say them, by importing each in a child process (`plugins list`
   * does this; a spec only probes the packages named like what it needs).
   */
  probeAll(): void;
}

/**
 * Plugins the user installed or declared, as npm packages: the dependencies
 * of the roots' package.json files and of the user plugin folder that
 * declare `"netbench": { kind, name }` (any package name), or that are named
 * `netbench-plugin-<name>` / `@scope/netbench-plugin-<name>`.
 * Discovery reads package.json files once, on first use; a plugin is
 * imported only when `get` first asks for it. A plugin-named package that
 * declares nothing is probed in a child process only when a plugin of its
 * implied name is asked for, or by `probeAll`.
 */
export function createRegistry(options: RegistryOptions = {}): PackageRegistry {
  let descriptors: PluginDescriptor[] | undefined;
  let pending: UndeclaredPackage[] = [];
  let ignoredRoots: RootProblem[] = [];
  const probeProblems: ProbeProblem[] = [];
  const loaded = new Map<string, Promise<AnyPlugin>>();
  const discover = () => {
    if (!descriptors) {
      const roots: RootInput[] = [...(options.searchDirs ?? defaultRoots())];
      const userPlugins = options.userPlugins ?? userPluginsDir();
      if (userPlugins !== false) roots.push({ dir: userPlugins, origin: 'user' });
      const found = discoverPackages(roots);
      descriptors = found.plugins;
      pending = found.undeclared;
      ignoredRoots = found.ignored;
    }
    return descriptors;
  };
  const probe = (which: (pkg: UndeclaredPackage) => boolean) => {
    const all = discover();
    const now = pending.filter(which);
    if (now.length === 0) return;
    pending = pending.filter((pkg) => !now.includes(pkg));
    const probed = probePlugins(now);
    const taken = new Set(all.map((d) => `${d.kind}\u0000${d.name}`));
    // Declared plugins win a name clash: they were found without guessing.
    all.push(...probed.plugins.filter((d) => !taken.has(`${d.kind}\u0000${d.name}`)));
    probeProblems.push(...probed.problems);
  };

  return {
    list(kind?: PluginKind) {
      return discover().filter((d) => kind === undefined || d.kind === kind);
    },
    problems() {
      discover();
      return probeProblems;
    },
    ignored() {
      discover();
      return ignoredRoots;
    },
    probeAll() {
      probe(() => true);
    },
    async get<K extends PluginKind>(kind: K, name: string) {
      let descriptor = discover().find((d) => d.kind === kind && d.name === name);
      if (!descriptor) {
        probe((pkg) => impliedPluginName(pkg.packageName) === name);
        descriptor = discover().find((d) => d.kind === kind && d.name === name);
      }
      if (!descriptor) return undefined;
      const key = `${kind}\u0000${name}`;
      let plugin = loaded.get(key);
      if (!plugin) {
        plugin = loadPlugin(descriptor);
        loaded.set(key, plugin);
        // A failed load is not cached, so a fixed install can be retried.
        plugin.catch(() => loaded.delete(key));
      }
      return (await plugin) as Extract<AnyPlugin, { kind: K }>;
    },
  };
}

/** The netbench CLI's dependencies; without the CLI, the package that holds this core. */
function defaultRoots(): RootInput[] {
  const cli = cliPackageDir();
  return [cli ?? dirname(dirname(fileURLToPath(import.meta.url)))];
}
