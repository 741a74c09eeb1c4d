import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let found: { dir: string; version: string } | undefined;

/**
 * The CLI's package folder and version, found by walking up from this module
 * to the package.json named `@netbench/cli`: the same answer from
 * `dist/lib/` and from the run bundle (`dist/bundle/`, see
 * `scripts/bundle-run.mjs`), where a fixed relative path would differ.
 */
export function cliPackage(): { dir: string; version: string } {
  if (found) return found;
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    let pkg: { name?: string; version?: string } | undefined;
    try {
      pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
    } catch {
      // No package.json at this level (dist/, dist/lib/): keep walking up.
    }
    if (pkg?.name === '@netbench/cli') return (found = { dir, version: pkg.version ?? '0.0.0' });
    if (dirname(dir) === dir) throw new Error(`cannot find the @netbench/cli package above ${fileURLToPath(import.meta.url)}`);
  }
}
