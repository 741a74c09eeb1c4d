import { join, resolve } from 'node:path';
import { netbenchHome } from '@netbench/plugin-api';

/** The results store: `$NETBENCH_DB`, else `$NETBENCH_HOME/netbench.db` (`~/.netbench/netbench.db`). */
export function defaultStorePath(): string {
  const db = process.env['NETBENCH_DB'];
  return resolve(db && db.length > 0 ? db : join(netbenchHome(), 'netbench.db'));
}
