import { homedir } from 'node:os';
import { join } from 'node:path';

/** netbench's own folder: `$NETBENCH_HOME`, else `~/.netbench`. */
export function netbenchHome(): string {
  const home = process.env['NETBENCH_HOME'];
  return home && home.length > 0 ? home : join(homedir(), '.netbench');
}

/** Parent of run folders when neither the caller nor the spec names one. */
export function defaultRunsDir(): string {
  return join(netbenchHome(), 'runs');
}
