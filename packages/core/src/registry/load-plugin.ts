import { pathToFileURL } from 'node:url';
import type { AnyPlugin } from '@netbench/plugin-api';
import { apiVersionProblem, isPlugin, PluginError } from '@netbench/plugin-api';
import { readPackageJson } from './discover-plugins.js';
import { packageEntry } from './package-entry.js';
import { pluginBundle } from './plugin-bundle.js';
import type { PluginDescriptor } from './types.js';

/**
 * Import a discovered plugin package and check it is what its package.json
 * declares: a branded plugin (made with `definePlugin`) of that kind and name,
 * on a supported contract version. Every failure is a `PluginError` naming
 * the package and version, with the reason as `cause`.
 */
export async function loadPlugin(descriptor: PluginDescriptor): Promise<AnyPlugin> {
  const label = `${descriptor.packageName}@${descriptor.version}`;
  const fail = (cause: unknown): never => {
    throw new PluginError(label, 'load', cause);
  };
  const pkg = readPackageJson(descriptor.dir);
  const entry = pkg && packageEntry(descriptor.dir, pkg);
  if (!entry) return fail(new Error(`no entry point in ${descriptor.dir}/package.json ("exports" or "main")`));

  let module: { default?: unknown };
  try {
    // The package's one-file bundle when it has a fresh one (built-in plugins do), else its entry.
    module = (await import(pathToFileURL(pluginBundle(descriptor.dir, pkg, entry) ?? entry).href)) as { default?: unknown };
  } catch (error) {
    return fail(error);
  }
  const plugin = module.default;
  if (!isPlugin(plugin)) {
    return fail(new Error(`its default export is not a netbench plugin; export the result of definePlugin() from @netbench/plugin-api as default`));
  }
  if (plugin.kind !== descriptor.kind || plugin.name !== descriptor.name) {
    return fail(new Error(`package.json declares ${descriptor.kind} "${descriptor.name}" but the module exports ${plugin.kind} "${plugin.name}"`));
  }
  const problem = apiVersionProblem(plugin.apiVersion);
  if (problem) return fail(new Error(problem));
  return plugin;
}
