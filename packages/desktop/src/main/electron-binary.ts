import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The Electron executable the `electron` npm package downloaded, or
 * undefined when it is missing (installed with ELECTRON_SKIP_BINARY_DOWNLOAD,
 * or not installed at all). Read the way the package's own index.js does,
 * without importing it (which throws when the binary is absent).
 */
export function electronBinary(): string | undefined {
  try {
    const pkg = createRequire(import.meta.url).resolve('electron/package.json');
    const dir = dirname(pkg);
    const pathFile = join(dir, 'path.txt');
    if (!existsSync(pathFile)) return undefined;
    const binary = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
    return existsSync(binary) ? binary : undefined;
  } catch {
    return undefined;
  }
}
