import type { AnyPlugin, PluginKind } from '@netbench/plugin-api';
import type { RawIssue } from '../issues/spec-error.js';
import type { PluginResolver } from '../registry/types.js';
import { suggestion } from './did-you-mean.js';

/**
 * Official plugins that may simply not be installed yet. A spec naming one
 * still loads (with a warning, its fields unchecked), so cloud specs can be
 * written, validated and planned before the plugin is installed.
 */
export const OFFICIAL_CATALOG: Readonly<Record<PluginKind, readonly string[]>> = {
  cloud: ['aws', 'gcp', 'azure', 'static'],
  tool: ['iperf', 'fping'],
  publisher: [],
};

export type Lookup<K extends PluginKind> =
  | { readonly status: 'found'; readonly plugin: Extract<AnyPlugin, { kind: K }> }
  | { readonly status: 'catalog'; readonly warning: string }
  | { readonly status: 'missing'; readonly issue: RawIssue };

/** Finds plugins the spec names, importing each at most once. */
export class PluginLookup {
  private readonly cache = new Map<string, Promise<Lookup<PluginKind>>>();

  constructor(private readonly resolver: PluginResolver) {}

  find<K extends PluginKind>(kind: K, name: string, path: readonly (string | number)[]): Promise<Lookup<K>> {
    const key = `${kind}:${name}`;
    let found = this.cache.get(key);
    if (!found) {
      found = this.load(kind, name);
      this.cache.set(key, found);
    }
    // The path differs per use; re-anchor a cached problem at this one.
    return found.then((result) => (result.status === 'missing' ? { ...result, issue: { ...result.issue, path } } : result)) as Promise<Lookup<K>>;
  }

  private async load(kind: PluginKind, name: string): Promise<Lookup<PluginKind>> {
    const installed = this.resolver.list(kind).map((d) => d.name);
    if (installed.includes(name)) {
      try {
        const plugin = await this.resolver.get(kind, name);
        if (plugin) return { status: 'found', plugin };
      } catch (error) {
        return { status: 'missing', issue: { path: [], message: `${kind} plugin '${name}' failed to load: ${error instanceof Error ? error.message : String(error)}` } };
      }
    }
    if (OFFICIAL_CATALOG[kind].includes(name)) {
      return { status: 'catalog', warning: `${kind} '${name}' needs @netbench/plugin-${name}, which is not installed; its fields were not checked` };
    }
    const list = installed.length > 0 ? `installed ${kind}s: ${[...installed].sort().join(', ')}` : `no ${kind} plugins are installed`;
    const similar = suggestion(name, installed);
    // No near miss: likely a third-party plugin that is not installed (yet, or any more).
    const hint = similar ? '' : `; a third-party one installs with \`netbench plugins add netbench-plugin-${name}\``;
    return { status: 'missing', issue: { path: [], message: `unknown ${kind} '${name}'${similar}; ${list}${hint}` } };
  }
}
