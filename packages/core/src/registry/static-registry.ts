import type { AnyPlugin, PluginKind } from '@netbench/plugin-api';
import type { PluginDescriptor, PluginResolver } from './types.js';

/** A resolver over plugin objects at hand (tests, embedding netbench in another program). */
export function staticRegistry(plugins: readonly AnyPlugin[]): PluginResolver {
  const descriptors: PluginDescriptor[] = plugins.map((p) => ({
    kind: p.kind,
    name: p.name,
    packageName: `(static) ${p.name}`,
    version: p.version ?? '0.0.0',
    dir: '',
    builtin: false,
  }));
  return {
    list: (kind?: PluginKind) => descriptors.filter((d) => kind === undefined || d.kind === kind),
    get: async <K extends PluginKind>(kind: K, name: string) => plugins.find((p): p is Extract<AnyPlugin, { kind: K }> => p.kind === kind && p.name === name),
  };
}
