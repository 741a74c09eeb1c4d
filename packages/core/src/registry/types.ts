import type { AnyPlugin, PluginKind } from '@netbench/plugin-api';

/** What discovery knows of a plugin before importing it (from its package.json). */
export interface PluginDescriptor {
  readonly kind: PluginKind;
  readonly name: string;
  readonly packageName: string;
  readonly version: string;
  /** Absolute folder of the package. */
  readonly dir: string;
  readonly builtin: boolean;
  /**
   * Who declared it: `built-in` (ships with netbench), `cli` (a dependency of
   * the netbench installation), `user` (`$NETBENCH_HOME/plugins`, `plugins
   * add`), `project` (the working directory's package.json).
   */
  readonly origin?: 'built-in' | 'cli' | 'user' | 'project';
  /** The package.json that declares it. */
  readonly declaredBy?: string;
}

/**
 * Finds plugins by kind and short name. Loading is lazy: `get` imports the
 * package the first time it is asked for, so start-up does not grow with the
 * number of installed plugins.
 */
export interface PluginResolver {
  /** Descriptors of every discovered plugin (no import). */
  list(kind?: PluginKind): readonly PluginDescriptor[];
  /** Import and return a plugin; `undefined` when no such plugin is installed. Throws `PluginError` when it fails to load. */
  get<K extends PluginKind>(kind: K, name: string): Promise<Extract<AnyPlugin, { kind: K }> | undefined>;
}
