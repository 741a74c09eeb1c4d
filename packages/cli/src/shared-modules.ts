// The modules the run bundle holds that plugins import too (scripts/bundle-run.mjs).
import { registerHooks } from 'node:module';

/**
 * What a plugin imports → the bundle entry that holds it. Plugins must get the
 * engine's own copies (one `NetbenchError` class for `instanceof`, one zod for
 * schemas the engine composes), and the bundle has them inside.
 */
export const SHARED_MODULES: Readonly<Record<string, string>> = {
  zod: 'shared-zod.js',
  '@netbench/plugin-api': 'shared-plugin-api.js',
  '@netbench/plugin-api/tool-kit': 'shared-plugin-api-tool-kit.js',
  '@netbench/plugin-api/cloud-kit': 'shared-plugin-api-cloud-kit.js',
  '@netbench/plugin-api/publisher-kit': 'shared-plugin-api-publisher-kit.js',
};

/** Whether this Node can redirect imports in the process (module.registerHooks: Node ≥ 22.15 / 23.5). */
export const canShareModules = (): boolean => typeof registerHooks === 'function';

/**
 * From now on, an import of a shared module that would have loaded the
 * CLI's own copy (a built-in plugin's, an installed plugin's through the
 * linked SDK) loads the bundle's entry in `bundleDir` instead: the copy the
 * engine runs with. A plugin that brings its own copy (another zod) keeps it,
 * as before; other specifiers (`zod/v4/core`,
 * `@netbench/plugin-api/package.json`) resolve as before.
 */
export function shareBundledModules(bundleDir: URL): void {
  const targets = new Map(Object.entries(SHARED_MODULES).map(([specifier, file]) => [specifier, { ours: import.meta.resolve(specifier), bundled: new URL(file, bundleDir).href }]));
  registerHooks({
    resolve(specifier, context, nextResolve) {
      const target = targets.get(specifier);
      const resolved = nextResolve(specifier, context);
      return target !== undefined && resolved.url === target.ours ? { url: target.bundled, format: 'module', shortCircuit: true } : resolved;
    },
  });
}
