import type { PluginKind } from './common.js';

const KINDS: readonly PluginKind[] = ['cloud', 'tool', 'publisher'];
/** Third-party plugin packages by name: `netbench-plugin-<name>` or `@scope/netbench-plugin-<name>`. */
export const PLUGIN_PACKAGE_RE = /^(?:@[^/]+\/)?netbench-plugin-(.+)$/;

/** The short name a plugin package's name implies (`@acme/netbench-plugin-foo` is `foo`). */
export function impliedPluginName(packageName: string): string | undefined {
  return PLUGIN_PACKAGE_RE.exec(packageName)?.[1];
}

/** A valid `{ kind, name }` declaration, or undefined. */
export function declaration(value: unknown): { kind: PluginKind; name: string } | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { kind, name } = value as { kind?: unknown; name?: unknown };
  if (typeof kind !== 'string' || !KINDS.includes(kind as PluginKind) || typeof name !== 'string' || name === '') return undefined;
  return { kind: kind as PluginKind, name };
}
