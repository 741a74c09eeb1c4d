import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { PackageJson } from './discover-plugins.js';

// Conditions an `import()` from Node honours, in the order Node tries them.
const CONDITIONS = ['node', 'import', 'module-sync', 'default'];

/**
 * The file `import('<package>')` would load: the `"."` export (string,
 * condition object or fallback array), else `main`, else `index.js`.
 * Returns `undefined` when the package names no loadable entry.
 */
export function packageEntry(dir: string, pkg: PackageJson): string | undefined {
  if (pkg.exports !== undefined && pkg.exports !== null) {
    const root = rootExport(pkg.exports);
    const target = root === undefined ? undefined : pickTarget(root);
    return target === undefined ? undefined : join(dir, target);
  }
  if (typeof pkg.main === 'string') {
    for (const candidate of [pkg.main, `${pkg.main}.js`, join(pkg.main, 'index.js')]) {
      if (existsSync(join(dir, candidate))) return join(dir, candidate);
    }
    return undefined;
  }
  return existsSync(join(dir, 'index.js')) ? join(dir, 'index.js') : undefined;
}

function rootExport(exports: unknown): unknown {
  if (typeof exports === 'string' || Array.isArray(exports)) return exports;
  if (typeof exports !== 'object' || exports === null) return undefined;
  const keys = Object.keys(exports);
  // Either a subpath map ({ ".": ..., "./x": ... }) or a condition map for "." itself.
  return keys.some((k) => k.startsWith('.')) ? (exports as Record<string, unknown>)['.'] : exports;
}

function pickTarget(target: unknown): string | undefined {
  if (typeof target === 'string') return target.startsWith('./') ? target : undefined;
  if (Array.isArray(target)) {
    for (const option of target) {
      const picked = pickTarget(option);
      if (picked !== undefined) return picked;
    }
    return undefined;
  }
  if (typeof target !== 'object' || target === null) return undefined;
  for (const [condition, value] of Object.entries(target)) {
    if (!CONDITIONS.includes(condition)) continue;
    const picked = pickTarget(value);
    if (picked !== undefined) return picked;
  }
  return undefined;
}
