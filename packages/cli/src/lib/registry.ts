import { createRegistry, type PluginResolver, type RootInput } from '@netbench/core/run';
import { cliPackage } from './cli-package.js';

let registry: PluginResolver | undefined;

/**
 * Whose package.json declares the plugins besides the user plugin folder:
 * the CLI's own (the built-ins are its dependencies) and the working
 * directory's project (only when no other user can write it). Packages that
 * are merely in a node_modules folder, here or above, are never loaded.
 */
export function cliSearchDirs(): RootInput[] {
  return [cliPackage().dir, { dir: process.cwd(), origin: 'project' }];
}

/** Plugins the CLI depends on, the working directory's project declares, and the user added. */
export function cliRegistry(): PluginResolver {
  registry ??= createRegistry({ searchDirs: cliSearchDirs() });
  return registry;
}
