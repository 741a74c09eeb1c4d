import { fileURLToPath } from 'node:url';
import { createRegistry, type PluginResolver } from '@netbench/core';

let registry: PluginResolver | undefined;

/** Plugins installed beside the CLI (the built-ins are its dependencies) and in the user's plugin folder. */
export function cliRegistry(): PluginResolver {
  registry ??= createRegistry({ searchDirs: [fileURLToPath(new URL('../..', import.meta.url)), process.cwd()] });
  return registry;
}
