import type { PluginKind } from '@netbench/plugin-api';
import { NetbenchError } from '@netbench/plugin-api';
import { blockJsonSchema } from '@netbench/plugin-api/testing';
import { createRegistry } from '../registry/create-registry.js';
import type { RootInput } from '../registry/plugin-roots.js';
import { userPluginsDir } from '../registry/user-plugins-dir.js';
import { type PluginSource, pluginSource } from './plugin-source.js';

export interface PluginInfoOptions {
  /** Short name or package name. */
  readonly name: string;
  /** Needed only when several kinds share the name. */
  readonly kind?: PluginKind;
  readonly searchDirs?: readonly RootInput[];
  readonly dir?: string;
}

/** One field of a plugin's spec block. */
export interface PluginField {
  readonly name: string;
  /** JSON Schema type, enum values or a union, in short (`integer`, `tcp | udp`, `string | string[]`). */
  readonly type: string;
  readonly required: boolean;
  readonly default?: unknown;
  readonly description?: string;
}

export interface PluginInfo {
  readonly kind: PluginKind;
  readonly name: string;
  readonly version: string;
  readonly packageName: string;
  readonly source: PluginSource;
  readonly dir: string;
  readonly apiVersion: number;
  readonly description?: string;
  /** Optional hooks it implements (`install`, `serve`, `sniff`, `cleanup`, ...) and optional declarations it makes (`metrics`, `flows`, `placement`). */
  readonly hooks: readonly string[];
  /** The fields of its spec block (a tool's benchmark, a cloud's host, a publisher's entry). */
  readonly fields: readonly PluginField[];
  /** The block's JSON Schema, as `netbench schema` embeds it. */
  readonly schema: Record<string, unknown>;
}

// Every optional hook of the cloud and tool contracts (plugin-api src/plugin/cloud.ts, tool.ts), and the optional declarations.
const OPTIONAL_HOOKS = ['preflight', 'admitPeers', 'reattach', 'teardownMany', 'cleanup', 'estimateCost', 'diagnose', 'catalog', 'install', 'serve', 'sniff', 'counters'];
const OPTIONAL_DECLARATIONS = ['metrics', 'flows', 'placement'];

/** `netbench plugins info`: kind, version, package and a summary of its schema. Imports that one plugin. */
export async function pluginInfo(options: PluginInfoOptions): Promise<PluginInfo> {
  const dir = options.dir ?? userPluginsDir();
  const registry = createRegistry({ ...(options.searchDirs ? { searchDirs: options.searchDirs } : {}), userPlugins: dir });
  registry.probeAll();
  const matches = registry.list(options.kind).filter((d) => d.name === options.name || d.packageName === options.name);
  if (matches.length === 0) {
    const names = registry
      .list(options.kind)
      .map((d) => d.name)
      .sort();
    throw new NetbenchError(`no ${options.kind ?? ''}${options.kind ? ' ' : ''}plugin named ${options.name}; installed: ${names.join(', ') || 'none'}`);
  }
  if (matches.length > 1) throw new NetbenchError(`${options.name} is a ${matches.map((d) => d.kind).join(' and a ')}; say which with --kind`);
  const descriptor = matches[0]!;
  const plugin = await registry.get(descriptor.kind, descriptor.name);
  if (!plugin) throw new NetbenchError(`${descriptor.packageName} disappeared while loading`);
  const schema = blockJsonSchema(plugin.kind === 'cloud' ? plugin.hostSchema : plugin.schema);
  return {
    kind: descriptor.kind,
    name: descriptor.name,
    version: descriptor.version,
    packageName: descriptor.packageName,
    source: pluginSource(descriptor, dir),
    dir: descriptor.dir,
    apiVersion: plugin.apiVersion ?? 0,
    ...(plugin.description !== undefined ? { description: plugin.description } : {}),
    hooks: [
      ...OPTIONAL_HOOKS.filter((hook) => typeof (plugin as unknown as Record<string, unknown>)[hook] === 'function'),
      ...OPTIONAL_DECLARATIONS.filter((field) => (plugin as unknown as Record<string, unknown>)[field] !== undefined),
    ],
    fields: schemaFields(schema),
    schema,
  };
}

type Json = Record<string, unknown>;

function schemaFields(schema: Json): PluginField[] {
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    type: typeOf(property),
    // A field with a default may be left out even when the output type requires it.
    required: required.has(name) && property.default === undefined,
    ...(property.default !== undefined ? { default: property.default } : {}),
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
  }));
}

function typeOf(property: Json): string {
  if (Array.isArray(property.enum)) return property.enum.map((v) => JSON.stringify(v).replace(/^"|"$/g, '')).join(' | ');
  if ('const' in property) return JSON.stringify(property.const);
  const union = (property.anyOf ?? property.oneOf) as Json[] | undefined;
  if (Array.isArray(union)) return [...new Set(union.map(typeOf))].join(' | ');
  if (property.type === 'array') {
    const item = typeOf((property.items ?? {}) as Json);
    return item.includes(' | ') ? `(${item})[]` : `${item}[]`;
  }
  if (typeof property.type === 'string') return property.type;
  if (Array.isArray(property.type)) return property.type.join(' | ');
  return 'any';
}
