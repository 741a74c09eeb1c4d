// Loads the run bundle (`dist/bundle/run.cjs`, scripts/bundle-run.mjs) as a
// classic script through `vm`, with a V8 code cache taken after a run.
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { codeCacheDir } from './code-cache-dir.js';

export { codeCacheDir };

/** What the script exports: `netbench run` and the modules it shares with plugins (src/shared-modules.ts). */
export interface RunBundle {
  fastRun(argv: string[]): Promise<boolean>;
  readonly shared: Readonly<Record<string, object>>;
}

/** Where `dist/bundle/shared-*.js` find the script's shared modules. */
export const SHARED_GLOBAL = Symbol.for('netbench.run-bundle');

export interface LoadOptions {
  /** What the cache is kept for (bin/run.js: the spec file): each gets one holding what its runs compile. */
  readonly variant?: string;
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
 * ended, from everything that run compiled, and kept per Node version, per
 * build of the script and per variant (the spec: runs of another spec call
 * other functions). A run that ended well (exit code 0) writes its variant's
 * when there is none, or only one from a run that did not or of another
 * variant, or V8 refused it (another V8, other flags); a run that did not
 * writes one only when it had none V8 would use. Caches of other builds are
 * removed then, and of this build's the 8 newest are kept. Without a usable
 * cache folder the script runs uncached.
 */
export function loadRunBundle(url: URL, options: LoadOptions = {}): LoadedBundle {
  const cacheDir = 'cacheDir' in options ? options.cacheDir : codeCacheDir();
  const onExit = options.onExit ?? ((save) => process.once('exit', save));
  const file = fileURLToPath(url);
  const source = readFileSync(file, 'utf8');
  const stat = statSync(file);
  // V8 checks a cache against the source's length only: the file's identity and time tell builds apart.
  const build = `run-${process.version}-${process.arch}-${stat.dev}-${stat.ino}-${stat.size}-${Math.floor(stat.mtimeMs)}`;
  const name = (complete: boolean) => `${build}.${fnv1a(options.variant ?? '')}${complete ? '.complete' : ''}.v8`;
  let cached: Buffer | undefined;
  let cachedName: string | undefined;
  if (cacheDir !== undefined) {
    // This variant's cache, else any complete one of this build (another spec's: it holds much of what this run needs).
    const others = () => readdirSync(cacheDir).filter((n) => n.startsWith(`${build}.`) && n.endsWith('.complete.v8'));
    for (const candidate of [() => [name(true)], () => [name(false)], others]) {
      try {
        for (const n of candidate()) {
          cached = readFileSync(join(cacheDir, n));
          cachedName = n;
          break;
        }
      } catch {
        // None of this kind yet.
      }
      if (cached !== undefined) break;
    }
  }
  // The line numbers of the script stay those of the file: the wrapper adds no line.
  const script = new Script(`(function (exports, require, module, __filename, __dirname, __netbenchImport) {${source}\n})`, {
    filename: file,
    ...(cached ? { cachedData: cached } : {}),
  });
  const module = { exports: {} as RunBundle };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(module.exports, module.exports, createRequire(file), module, file, dirname(file), (specifier: string) => import(specifier));
  (globalThis as Record<symbol, unknown>)[SHARED_GLOBAL] = module.exports.shared;
  if (cacheDir !== undefined) {
    onExit((code) => {
      const complete = code === 0;
      const usable = cached !== undefined && !script.cachedDataRejected;
      // Kept: a usable cache of this variant from a run that ended well, or any usable one after a run that did not.
      if (usable && (cachedName === name(true) || !complete)) return;
      try {
        const target = join(cacheDir, name(complete));
        const temporary = `${target}.${process.pid}.tmp`;
        writeFileSync(temporary, script.createCachedData(), { mode: 0o600 });
        renameSync(temporary, target);
        // Other builds' caches go, and this variant's partial one once it has a complete one; of this build's, the 8 newest stay.
        const ours = readdirSync(cacheDir).filter((n) => n.startsWith('run-') && n.endsWith('.v8'));
        const stale = ours.filter((n) => !n.startsWith(`${build}.`) || (complete && n === name(false)));
        const kept = ours
          .filter((n) => !stale.includes(n))
          .map((n) => ({ n, t: statSync(join(cacheDir, n)).mtimeMs }))
          .sort((a, b) => b.t - a.t);
        for (const n of [...stale, ...kept.slice(8).map((k) => k.n)]) rmSync(join(cacheDir, n), { force: true });
      } catch {
        // A full disk or a folder gone: the next run compiles as this one did.
      }
    });
  }
  return { exports: module.exports, cache: cached === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'accepted' };
}

/** FNV-1a, 32 bits, as 8 hex digits: a short name for a variant (two that collide share a cache, which is still valid). */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, '0');
}
