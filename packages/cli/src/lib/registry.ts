import { fileURLToPath } from 'node:url';
import { createRegistry, type PluginResolver } from '@netbench/core';

let registry: PluginResolver | undefined;

/** Where plugins are looked for besides the user plugin folder: beside the CLI (the built-ins are its dependencies) and the working directory's project. */
export function cliSearchDirs(): string[] {
  return [fileURLToPath(new URL('../..', import.meta.url)), process.cwd()];
}

/** Plugins installed beside the CLI, in the working directory's project and in the user's plugin folder. */
export function cliRegistry(): PluginResolver {
  registry ??= createRegistry({ searchDirs: cliSearchDirs() });
  return registry;
}
