import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PluginKind } from '@netbench/plugin-api';
import type { AnyPlugin } from '@netbench/plugin-api';
import { discoverPackages } from './discover-plugins.js';
import { loadPlugin } from './load-plugin.js';
import { probePlugins, type ProbeProblem } from './probe-plugins.js';
import type { PluginDescriptor, PluginResolver } from './types.js';
import { userPluginsDir } from './user-plugins-dir.js';

export interface RegistryOptions {
  /**
   * Folders whose `node_modules` (and their ancestors') are searched, nearest
   * first. Default: the folder of this @netbench/core, which finds every
   * package installed beside it (the CLI's dependencies).
   */
  readonly searchDirs?: readonly string[];
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
}

/**
 * Plugins installed as npm packages: those that declare
 * `"netbench": { kind, name }` in package.json (any package name), and those
 * named `netbench-plugin-<name>` / `@scope/netbench-plugin-<name>`, found in
 * the `node_modules` of `searchDirs` and of the user plugin folder.
 * Discovery reads package.json files once, on first use; a plugin is
 * imported only when `get` first asks for it (a plugin-named package that
 * declares nothing is probed once in a child process, see `probePlugins`).
 */
export function createRegistry(options: RegistryOptions = {}): PackageRegistry {
  let descriptors: PluginDescriptor[] | undefined;
  let probeProblems: ProbeProblem[] = [];
  const loaded = new Map<string, Promise<AnyPlugin>>();
  const discover = () => {
    if (!descriptors) {
      const dirs = [...(options.searchDirs ?? [dirname(fileURLToPath(import.meta.url))])];
      const userPlugins = options.userPlugins ?? userPluginsDir();
      if (userPlugins !== false && existsSync(join(userPlugins, 'node_modules'))) dirs.push(userPlugins);
      const found = discoverPackages(dirs);
      descriptors = found.plugins;
      if (found.undeclared.length > 0) {
        const probed = probePlugins(found.undeclared);
        const taken = new Set(descriptors.map((d) => `${d.kind}\u0000${d.name}`));
        // Declared plugins win a name clash: they were found without guessing.
        descriptors.push(...probed.plugins.filter((d) => !taken.has(`${d.kind}\u0000${d.name}`)));
        probeProblems = probed.problems;
      }
    }
    return descriptors;
  };

  return {
    list(kind?: PluginKind) {
      return discover().filter((d) => kind === undefined || d.kind === kind);
    },
    problems() {
      discover();
      return probeProblems;
    },
    async get<K extends PluginKind>(kind: K, name: string) {
      const descriptor = discover().find((d) => d.kind === kind && d.name === name);
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
