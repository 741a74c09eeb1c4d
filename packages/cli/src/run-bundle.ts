// Loads the run bundle (`dist/bundle/run.cjs`, scripts/bundle-run.mjs) as a
// classic script through `vm`, with a V8 code cache taken after a run.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

/** What the script exports: `netbench run` and the modules it shares with plugins (src/shared-modules.ts). */
export interface RunBundle {
  fastRun(argv: string[]): Promise<boolean>;
  readonly shared: Readonly<Record<string, object>>;
}

/** Where `dist/bundle/shared-*.js` find the script's shared modules. */
export const SHARED_GLOBAL = Symbol.for('netbench.run-bundle');

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
    if ((uid !== undefined && stat.uid !== uid) || (stat.mode & 0o022) !== 0) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}

export interface LoadOptions {
  /** Default `codeCacheDir()`; `undefined` there: no cache. */
  readonly cacheDir?: string | undefined;
  /** How the cache is saved at the end (default: on the process's `exit`, with its exit code). */
  readonly onExit?: (save: (exitCode: number) => void) => void;
}

export interface LoadedBundle {
  readonly exports: RunBundle;
  /** What V8 did with the cache: none found, used, or refused (another V8, other flags). */
  readonly cache: 'none' | 'accepted' | 'rejected';
}

/**
 * Run the script and return its exports. V8 compiles a function the first
 * time it is called; a code cache made right after compiling (Node's
 * `module.enableCompileCache`) holds only top-level code, so every run used
 * to compile the same functions again. This one is made after a run has
 * ended, from everything that run compiled, and kept per Node version and
 * per build of the script. A run that ended well (exit code 0) writes it
 * when there is none, or only one from a run that did not, or V8 refused it
 * (another V8, other flags); every other cache of the script is removed then.
 * Without a usable cache folder the script runs uncached.
 */
export function loadRunBundle(url: URL, options: LoadOptions = {}): LoadedBundle {
  const cacheDir = 'cacheDir' in options ? options.cacheDir : codeCacheDir();
  const onExit = options.onExit ?? ((save) => process.once('exit', save));
  const file = fileURLToPath(url);
  const source = readFileSync(file, 'utf8');
  const stat = statSync(file);
  // V8 checks a cache against the source's length only: the file's identity and time tell builds apart.
  const key = `run-${process.version}-${process.arch}-${stat.dev}-${stat.ino}-${stat.size}-${Math.floor(stat.mtimeMs)}`;
  const cacheFile = (complete: boolean) => join(cacheDir ?? '', `${key}${complete ? '.complete' : ''}.v8`);
  let cached: Buffer | undefined;
  let cachedComplete = false;
  if (cacheDir !== undefined) {
    for (const complete of [true, false]) {
      try {
        cached = readFileSync(cacheFile(complete));
        cachedComplete = complete;
        break;
      } catch {
        // None of this kind yet.
      }
    }
  }
  // The line numbers of the script stay those of the file: the wrapper adds no line.
  const script = new Script(`(function (exports, require, module, __filename, __dirname, __netbenchImport) {${source}\n})`, { filename: file, ...(cached ? { cachedData: cached } : {}) });
  const module = { exports: {} as RunBundle };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(module.exports, module.exports, createRequire(file), module, file, dirname(file), (specifier: string) => import(specifier));
  (globalThis as Record<symbol, unknown>)[SHARED_GLOBAL] = module.exports.shared;
  if (cacheDir !== undefined) {
    onExit((code) => {
      const complete = code === 0;
      if (cached !== undefined && !script.cachedDataRejected && (cachedComplete || !complete)) return;
      try {
        const target = cacheFile(complete);
        const temporary = `${target}.${process.pid}.tmp`;
        writeFileSync(temporary, script.createCachedData(), { mode: 0o600 });
        renameSync(temporary, target);
        for (const name of readdirSync(cacheDir)) {
          if (name.startsWith('run-') && name.endsWith('.v8') && join(cacheDir, name) !== target) rmSync(join(cacheDir, name), { force: true });
        }
      } catch {
        // A full disk or a folder gone: the next run compiles as this one did.
      }
    });
  }
  return { exports: module.exports, cache: cached === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'accepted' };
}
