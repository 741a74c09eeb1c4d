import { isAbsolute, relative } from 'node:path';
import type { PluginDescriptor } from '../registry/types.js';

/**
 * Where a plugin comes from, for `netbench plugins list`: built-in (ships
 * with the CLI), cli (another dependency of the netbench installation), user
 * (`plugins add`, `$NETBENCH_HOME/plugins`), project (a dependency in the
 * working directory's package.json).
 */
export type PluginSource = 'built-in' | 'cli' | 'user' | 'project';

export function pluginSource(descriptor: PluginDescriptor, userDir: string): PluginSource {
  if (descriptor.builtin) return 'built-in';
  if (descriptor.origin && descriptor.origin !== 'built-in') return descriptor.origin;
  const rel = relative(userDir, descriptor.dir);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? 'user' : 'project';
}
