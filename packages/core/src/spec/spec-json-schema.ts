import type { AnyPlugin, PluginKind } from '@netbench/plugin-api';
import { NetbenchError, z } from '@netbench/plugin-api';
import type { PluginResolver } from '../registry/types.js';
import { allowPlaceholders } from './placeholder-json-schema.js';
import { OFFICIAL_CATALOG } from './plugin-lookup.js';
import { specSkeleton } from './skeleton-schema.js';

type Json = Record<string, unknown>;

/** Which core field names the plugin in each kind of block. */
const DISCRIMINATOR: Record<PluginKind, string> = { cloud: 'cloud', tool: 'tool', publisher: 'type' };

/**
 * The JSON Schema of the whole spec for editors: the core skeleton with
 * `hosts`, `benchmarks` and `publish` entries as an `anyOf` of one variant
 * per installed plugin (discriminated by `cloud`/`tool`/`type`). Loads every
 * installed plugin. Throws naming each plugin whose schema fails to convert.
 */
export async function specJsonSchema(resolver: PluginResolver): Promise<Record<string, unknown>> {
  const root = z.toJSONSchema(specSkeleton, { io: 'input' }) as Json;
  const properties = root.properties as Record<string, Json>;
  const failures: string[] = [];
  const defs: Json = {};

  const variants = async (kind: PluginKind, core: Json): Promise<Json[]> => {
    const out: Json[] = [];
    const installed = resolver.list(kind);
    for (const descriptor of installed) {
      try {
        const plugin = await resolver.get(kind, descriptor.name);
        if (!plugin) throw new Error('not found by the resolver');
        out.push(variant(kind, plugin, core, defs));
      } catch (error) {
        failures.push(`${kind} '${descriptor.name}': ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    for (const name of OFFICIAL_CATALOG[kind]) {
      if (installed.some((d) => d.name === name)) continue;
      out.push(catalogVariant(kind, name, core));
    }
    return out;
  };

  const hosts = properties.hosts as Json;
  const benchmarks = properties.benchmarks as Json;
  const publish = properties.publish as Json;
  hosts.additionalProperties = { anyOf: await variants('cloud', hosts.additionalProperties as Json) };
  benchmarks.items = { anyOf: await variants('tool', benchmarks.items as Json) };
  publish.items = { anyOf: await variants('publisher', publish.items as Json) };
  if (failures.length > 0) throw new NetbenchError(`cannot build the spec JSON Schema; plugin schemas failed to convert:\n  ${failures.join('\n  ')}`);

  return {
    ...root,
    title: 'netbench spec',
    ...(Object.keys(defs).length > 0 ? { $defs: { ...(root.$defs as Json | undefined), ...defs } } : {}),
  };
}

function variant(kind: PluginKind, plugin: AnyPlugin, core: Json, defs: Json): Json {
  const schema = plugin.kind === 'cloud' ? plugin.hostSchema : plugin.schema;
  const converted = z.toJSONSchema(schema as z.ZodType, { io: 'input' }) as Json;
  if (converted.type !== 'object') throw new Error(`its schema must be an object, not ${JSON.stringify(converted.type ?? 'a union')}`);
  const { $schema: _drop, $defs, ...own } = converted;
  if ($defs && typeof $defs === 'object') Object.assign(defs, $defs);
  const key = DISCRIMINATOR[kind];
  const coreProps = core.properties as Json;
  const ownProps = ((allowPlaceholders(own) as Json).properties ?? {}) as Json;
  return {
    type: 'object',
    title: `${kind} ${plugin.name}`,
    ...(plugin.description ? { description: plugin.description } : {}),
    properties: { ...coreProps, ...ownProps, [key]: { const: plugin.name } },
    required: [...new Set([...((core.required as string[] | undefined) ?? []), ...((own.required as string[] | undefined) ?? [])])],
    additionalProperties: false,
  };
}

/** An official plugin that is not installed: the loader accepts its block unchecked, so does the schema. */
function catalogVariant(kind: PluginKind, name: string, core: Json): Json {
  const key = DISCRIMINATOR[kind];
  return {
    type: 'object',
    title: `${kind} ${name} (not installed)`,
    description: `Needs @netbench/plugin-${name}, which is not installed; its fields are not checked.`,
    properties: { ...(core.properties as Json), [key]: { const: name } },
    required: (core.required as string[] | undefined) ?? [key],
    additionalProperties: true,
  };
}
