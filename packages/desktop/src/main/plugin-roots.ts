import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RootInput } from '@netbench/core';

/**
 * Whose package.json declares the desktop app's plugins: the app's own and
 * the netbench CLI's (the built-ins are its dependencies), plus
 * `$NETBENCH_HOME/plugins` (added by the registry). Never the working
 * directory, and never a package that merely sits in a node_modules folder.
 */
export function desktopPluginRoots(): RootInput[] {
  const roots: RootInput[] = [resolve(dirname(fileURLToPath(import.meta.url)), '../..')];
  try {
    roots.push(dirname(createRequire(import.meta.url).resolve('@netbench/cli/package.json')));
  } catch {
    // The app without the CLI: its own dependencies and the user's plugins.
  }
  return roots;
}
