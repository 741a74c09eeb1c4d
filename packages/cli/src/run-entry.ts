// Which module runs `netbench run` (bin/run.js asks before importing it).
import { statSync } from 'node:fs';
import { canShareModules, shareBundledModules } from './shared-modules.js';

export { loadRunBundle } from './run-bundle.js';
export { shareBundledModules };

/** Compiled packages whose code the run bundle holds (their tsc build info, beside each package.json). */
const BUNDLED_BUILDS = [
  '../tsconfig.tsbuildinfo',
  '../../core/tsconfig.tsbuildinfo',
  '../../results/tsconfig.tsbuildinfo',
  '../../report/tsconfig.tsbuildinfo',
  '../../plugin-api/tsconfig.tsbuildinfo',
];

/** Modification time of a file (ms), undefined when it does not exist. */
export type Mtime = (url: URL) => number | undefined;

const fileMtime: Mtime = (url) => statSync(url, { throwIfNoEntry: false })?.mtimeMs;

/**
 * The run bundle (`dist/bundle/run.cjs`, scripts/bundle-run.mjs) when it is
 * at least as new as every compiled package it was made from, else the
 * compiled `dist/fast-run.js`: a `tsc -b` without the bundle step never runs
 * stale code. A published CLI has no build info; its bundle is what was built.
 * The bundle holds zod and plugin-api, which plugins must share with it
 * (`shareBundledModules`): on a Node that cannot redirect their imports
 * (`canShare` false), the compiled code runs instead.
 * `base` is this package's `dist/` folder.
 */
export function runEntry(base: URL = new URL('./', import.meta.url), mtime: Mtime = fileMtime, canShare: boolean = canShareModules()): URL {
  const bundle = new URL('bundle/run.cjs', base);
  if (!canShare) return new URL('fast-run.js', base);
  const bundled = mtime(bundle);
  const built = BUNDLED_BUILDS.map((path) => mtime(new URL(path, base)));
  return bundled !== undefined && built.every((t) => t === undefined || t <= bundled) ? bundle : new URL('fast-run.js', base);
}
