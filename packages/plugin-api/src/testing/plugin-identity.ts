import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { apiVersionProblem } from '../plugin/api-version.js';
import type { PluginKind } from '../plugin/common.js';
import { declaration, impliedPluginName } from '../plugin/declaration.js';
import { type AnyPlugin, type Branded, isPlugin } from '../plugin/define-plugin.js';
import { type ConformanceCheck, check, fail } from './conformance-check.js';

/** A file path or `file:` URL (as `new URL('../package.json', import.meta.url)` gives). */
export type PathLike = string | URL;

export const toPath = (path: PathLike) => (path instanceof URL ? fileURLToPath(path) : path);

/** The plugin as the loader would accept it, or a conformance failure saying why not. */
export function expectPlugin<K extends PluginKind>(value: unknown, kind: K): Branded<Extract<AnyPlugin, { kind: K }>> {
  if (!isPlugin(value)) fail('not a netbench plugin: export the result of definePlugin() from @netbench/plugin-api as the default export');
  if (value.kind !== kind) fail(`expected a ${kind} plugin, got kind ${JSON.stringify(value.kind)}`);
  return value as Branded<Extract<AnyPlugin, { kind: K }>>;
}

/** Brand, kind, name and contract version; and, given its package.json, that the package declares what the module exports. */
export function identityChecks(value: unknown, kind: PluginKind, packageJson: PathLike | undefined): ConformanceCheck[] {
  const checks = [
    check(`is a ${kind} plugin made with definePlugin, on a supported plugin API version`, () => {
      const plugin = expectPlugin(value, kind);
      if (typeof plugin.name !== 'string' || !/^[a-z0-9][a-z0-9._-]*$/i.test(plugin.name)) {
        fail(`its name ${JSON.stringify(plugin.name)} must be a non-empty word (letters, digits, . _ -): specs write it as \`${kind === 'publisher' ? 'type' : kind}: <name>\``);
      }
      const problem = apiVersionProblem(plugin.apiVersion);
      if (problem) fail(`plugin ${plugin.name}: ${problem}`);
    }),
  ];
  if (packageJson !== undefined) {
    checks.push(
      check('its package.json declares it, so discovery finds it without importing it', async () => {
        const plugin = expectPlugin(value, kind);
        const pkg = JSON.parse(await readFile(toPath(packageJson), 'utf8')) as {
          name?: unknown;
          version?: unknown;
          netbench?: unknown;
          peerDependencies?: Record<string, string>;
          dependencies?: Record<string, string>;
        };
        const declared = declaration(pkg.netbench);
        const implied = typeof pkg.name === 'string' ? impliedPluginName(pkg.name) : undefined;
        if (!declared && !implied) fail(`package.json needs "netbench": { "kind": "${plugin.kind}", "name": "${plugin.name}" } (or a name like netbench-plugin-${plugin.name})`);
        if (declared && (declared.kind !== plugin.kind || declared.name !== plugin.name)) {
          fail(`package.json declares ${declared.kind} "${declared.name}" but the module exports ${plugin.kind} "${plugin.name}"`);
        }
        if (!declared && implied !== plugin.name) fail(`the package name ${String(pkg.name)} implies plugin "${implied}" but the module exports "${plugin.name}"`);
        if (plugin.version !== undefined && plugin.version !== pkg.version) {
          fail(`the plugin says version ${plugin.version} but package.json says ${String(pkg.version)}; results record the plugin's`);
        }
      }),
    );
  }
  return checks;
}
