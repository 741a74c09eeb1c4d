import type { PluginKind } from '@netbench/plugin-api';
import { createRegistry } from '../registry/create-registry.js';
import type { RootInput, RootProblem } from '../registry/plugin-roots.js';
import type { ProbeProblem } from '../registry/probe-plugins.js';
import { userPluginsDir } from '../registry/user-plugins-dir.js';
import { type PluginSource, pluginSource } from './plugin-source.js';

export interface ListPluginsOptions {
  /** Roots whose package.json declares plugins (the CLI's, the project's; see `createRegistry`). Default: the CLI's. */
  readonly searchDirs?: readonly RootInput[];
  /** The user plugin folder. Default `$NETBENCH_HOME/plugins`. */
  readonly dir?: string;
  readonly kind?: PluginKind;
}

export interface PluginListing {
  readonly kind: PluginKind;
  readonly name: string;
  readonly version: string;
  readonly packageName: string;
  /** built-in (ships with the CLI), cli (another CLI dependency), user (`plugins add`), project (the working directory's package.json). */
  readonly source: PluginSource;
  readonly dir: string;
  /** The package.json that declares it (why netbench loads it). */
  readonly declaredBy?: string;
}

export interface PluginList {
  readonly plugins: PluginListing[];
  /** Plugin-named packages that could not be used, with why. */
  readonly problems: readonly ProbeProblem[];
  /** Project package.json files that were not used, with why (e.g. writable by others). */
  readonly ignored: readonly RootProblem[];
}

/** `netbench plugins list`: every discovered plugin, built-in and third-party. Imports none of them. */
export function listPlugins(options: ListPluginsOptions = {}): PluginList {
  const dir = options.dir ?? userPluginsDir();
  const registry = createRegistry({ ...(options.searchDirs ? { searchDirs: options.searchDirs } : {}), userPlugins: dir });
  registry.probeAll();
  const plugins = registry.list(options.kind).map((d) => ({
    kind: d.kind,
    name: d.name,
    version: d.version,
    packageName: d.packageName,
    source: pluginSource(d, dir),
    dir: d.dir,
    ...(d.declaredBy ? { declaredBy: d.declaredBy } : {}),
  }));
  const order: Record<PluginKind, number> = { cloud: 0, tool: 1, publisher: 2 };
  plugins.sort((a, b) => order[a.kind] - order[b.kind] || a.name.localeCompare(b.name));
  return { plugins, problems: registry.problems(), ignored: registry.ignored() };
}
