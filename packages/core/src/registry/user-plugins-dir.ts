import { join } from 'node:path';
import { netbenchHome } from '@netbench/plugin-api';

/** The user plugin folder, an npm project: `$NETBENCH_HOME/plugins` (default `~/.netbench/plugins`). */
export function userPluginsDir(): string {
  return join(netbenchHome(), 'plugins');
}
