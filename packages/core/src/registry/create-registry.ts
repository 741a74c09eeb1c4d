import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PluginKind } from '../plugin/common.js';
import type { AnyPlugin } from '../plugin/define-plugin.js';
import { netbenchHome } from '../run-id/runs-dir.js';
import { discoverPlugins } from './discover-plugins.js';
import { loadPlugin } from './load-plugin.js';
import type { PluginDescriptor, PluginResolver } from './types.js';

export interface RegistryOptions {
  /**
   * Folders whose `node_modules` (and their ancestors') are searched, nearest
   * first. Default: the folder of this @netbench/core, which finds every
   * package installed beside it (the CLI's dependencies).
   */
  readonly searchDirs?: readonly string[];
}

/**
 * Plugins installed as npm packages that declare `"netbench": { kind, name }`
 * in package.json, plus `$NETBENCH_HOME/plugins/node_modules`. Discovery
 * reads package.json files once, on first use; a plugin is imported only
 * when `get` first asks for it.
 */
export function createRegistry(options: RegistryOptions = {}): PluginResolver {
  let descriptors: PluginDescriptor[] | undefined;
  const loaded = new Map<string, Promise<AnyPlugin>>();
  const discover = () => {
    if (!descriptors) {
      const dirs = [...(options.searchDirs ?? [dirname(fileURLToPath(import.meta.url))])];
      const userPlugins = join(netbenchHome(), 'plugins');
      if (existsSync(join(userPlugins, 'node_modules'))) dirs.push(userPlugins);
      descriptors = discoverPlugins(dirs);
    }
    return descriptors;
  };

  return {
    list(kind?: PluginKind) {
      return discover().filter((d) => kind === undefined || d.kind === kind);
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
