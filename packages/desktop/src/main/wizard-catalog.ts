import type { PluginResolver } from '@netbench/core';
import type { CloudCatalog } from '@netbench/plugin-api';
import { NetbenchError, z } from '@netbench/plugin-api';
import type { CloudCatalogAnswer, CloudChoice, CloudFields, WizardCatalog, WizardTool } from '../shared/bridge-types.js';

const WIZARD_TOOLS: readonly WizardTool[] = ['ping', 'netperf', 'iperf3'];
/** Host fields the wizard sets itself; the rest are listed as "also settable in the YAML". */
const WIZARD_FIELDS = new Set(['cloud', 'zone', 'machineType', 'reuse']);

/**
 * What the wizard can offer before anything is picked: the installed cloud
 * plugins and which of the wizard's tools are installed. Imports no plugin
 * (a cloud SDK takes seconds to load); each cloud's zones and machine types
 * come from `cloudCatalog` once that cloud is picked.
 */
export async function wizardCatalog(registry: PluginResolver): Promise<WizardCatalog> {
  const clouds: CloudChoice[] = registry.list('cloud').map((d) => ({ cloud: d.name, installed: true, version: d.version }));
  const tools = WIZARD_TOOLS.map((name) => ({ name, installed: registry.list('tool').some((d) => d.name === name) }));
  return { clouds, tools };
}

const name = z.string().min(1).max(100);
/** The contract's `CloudCatalog`: checked, since a third-party plugin's list goes straight into the page. */
const catalogSchema = z.object({
  date: z.iso.date(),
  regions: z.array(z.object({ name, zones: z.array(name).max(100) })).max(500),
  machineTypes: z
    .array(
      z.object({
        name,
        vcpus: z.number().positive().optional(),
        memoryGib: z.number().positive().optional(),
        family: z.string().max(100).optional(),
      }),
    )
    .max(5000),
});

/**
 * The picked cloud's regions, zones and machine types from its plugin's
 * `catalog()` (imports the plugin, so asked for only when the cloud is
 * picked), or `null` for a cloud without one (local, static, most
 * third-party clouds): the wizard then takes names as free text.
 */
export async function cloudCatalog(registry: PluginResolver, cloud: string): Promise<CloudCatalogAnswer> {
  const plugin = await registry.get('cloud', cloud);
  if (!plugin) throw new NetbenchError(`no cloud plugin named ${cloud} is installed`);
  if (typeof plugin.catalog !== 'function') return { catalog: null };
  let raw: unknown;
  try {
    raw = plugin.catalog();
  } catch (error) {
    throw new NetbenchError(`[plugin ${cloud}] catalog: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const parsed = catalogSchema.safeParse(raw);
  if (!parsed.success) {
    const detail = parsed.error.issues
      .slice(0, 3)
      .map((i) => `${i.path.join('.') || '(catalog)'}: ${i.message}`)
      .join('; ');
    throw new NetbenchError(`[plugin ${cloud}] catalog() returned an invalid list: ${detail}`);
  }
  return { catalog: parsed.data satisfies CloudCatalog };
}

/** Host fields of a cloud plugin's schema (imports the plugin, so asked for only when the cloud is picked). */
export async function schemaFields(registry: PluginResolver, cloud: string): Promise<CloudFields> {
  try {
    const plugin = await registry.get('cloud', cloud);
    if (!plugin) return [];
    const json = z.toJSONSchema(plugin.hostSchema, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, { description?: string }> };
    return Object.entries(json.properties ?? {})
      .filter(([field]) => !WIZARD_FIELDS.has(field))
      .map(([field, spec]) => ({ name: field, description: spec.description ?? '' }));
  } catch {
    // A plugin that fails to load still appears; its fields are simply not listed.
    return [];
  }
}
