import { statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative } from 'node:path';
import type { PackageJson } from './discover-plugins.js';

/** Modification time of a file (ms), undefined when it does not exist. */
export type Mtime = (path: string) => number | undefined;

const fileMtime: Mtime = (path) => statSync(path, { throwIfNoEntry: false })?.mtimeMs;

/**
 * The file a plugin package names as `"netbench": { "bundle": "./dist/index.bundle.js" }`
 * — its entry and its own modules in one file, so a run resolves and loads
 * one module instead of dozens — when it may stand in for the
 * entry: a `.js` file inside the package, beside the entry (so paths made
 * from `import.meta.url` resolve as in the entry), at least as new as the
 * entry and as the package's TypeScript build info when there is one (a
 * `tsc -b` without the bundle step never runs stale code). Otherwise
 * undefined: the entry is loaded, as for any plugin.
 */
export function pluginBundle(dir: string, pkg: PackageJson, entry: string, mtime: Mtime = fileMtime): string | undefined {
  const named = (pkg.netbench as { bundle?: unknown } | undefined)?.bundle;
  if (typeof named !== 'string' || !named.startsWith('./') || !named.endsWith('.js')) return undefined;
  const bundle = join(dir, named);
  const inside = relative(dir, bundle);
  if (inside.startsWith('..') || isAbsolute(inside)) return undefined;
  if (dirname(bundle) !== dirname(entry)) return undefined;
  const bundled = mtime(bundle);
  if (bundled === undefined) return undefined;
  const built = [mtime(entry), mtime(join(dir, 'tsconfig.tsbuildinfo'))];
  return built.every((t) => t === undefined || t <= bundled) ? bundle : undefined;
}
