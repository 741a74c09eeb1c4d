// The one folder netbench keeps compiled code in (bin/run.js: Node's compile
// cache; run-bundle.ts: the run bundle's V8 code cache).
import { mkdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The folder for the code caches: `$NETBENCH_CODE_CACHE` when it names one,
 * else `$NETBENCH_HOME/cache`, else `~/.netbench/cache`; none when
 * `NETBENCH_CODE_CACHE=off`. Only a folder of this user's that no one else
 * can write is used: a cache is code this process runs.
 */
export function codeCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const chosen = env['NETBENCH_CODE_CACHE'];
  if (chosen === 'off') return undefined;
  const dir = chosen || join(env['NETBENCH_HOME'] || join(homedir(), '.netbench'), 'cache');
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = statSync(dir);
    const uid = process.getuid?.();
    if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid) || (stat.mode & 0o022) !== 0) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}
