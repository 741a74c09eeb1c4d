import { relative, isAbsolute } from 'node:path';
import type { PluginDescriptor } from '../registry/types.js';

/** Where a plugin comes from, for `netbench plugins list`. */
export type PluginSource = 'built-in' | 'user' | 'project';

export function pluginSource(descriptor: PluginDescriptor, userDir: string): PluginSource {
  if (descriptor.builtin) return 'built-in';
  const rel = relative(userDir, descriptor.dir);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? 'user' : 'project';
}
