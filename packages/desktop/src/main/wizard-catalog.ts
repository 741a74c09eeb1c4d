import { z, type PluginResolver } from '@netbench/core';
import type { CloudChoice, CloudFields, WizardCatalog, WizardTool } from '../shared/bridge-types.js';
import { CLOUD_LISTS } from './cloud-lists.js';

const WIZARD_TOOLS: readonly WizardTool[] = ['ping', 'netperf', 'iperf3'];
/** Host fields the wizard sets itself; the rest are listed as "also settable in the YAML". */
const WIZARD_FIELDS = new Set(['cloud', 'zone', 'machineType', 'reuse']);

/**
 * What the wizard can offer: installed cloud plugins with their zones and
 * machine types (curated lists), and which of the wizard's tools are
 * installed. Imports no plugin (a cloud SDK takes seconds to load).
 */
export async function wizardCatalog(registry: PluginResolver): Promise<WizardCatalog> {
  const clouds: CloudChoice[] = [];
  for (const descriptor of registry.list('cloud')) {
    const list = CLOUD_LISTS[descriptor.name];
    clouds.push({
      cloud: descriptor.name,
      installed: true,
      version: descriptor.version,
      regions: list?.regions ?? {},
      machineTypes: list?.machineTypes ?? [],
    });
  }
  const tools = WIZARD_TOOLS.map((name) => ({ name, installed: registry.list('tool').some((d) => d.name === name) }));
  return { clouds, tools };
}

/** Host fields of a cloud plugin's schema (imports the plugin, so asked for only when the cloud is picked). */
export async function schemaFields(registry: PluginResolver, cloud: string): Promise<CloudFields> {
  try {
    const plugin = await registry.get('cloud', cloud);
    if (!plugin) return [];
    const json = z.toJSONSchema(plugin.hostSchema, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, { description?: string }> };
    return Object.entries(json.properties ?? {})
      .filter(([name]) => !WIZARD_FIELDS.has(name))
      .map(([name, field]) => ({ name, description: field.description ?? '' }));
  } catch {
    // A plugin that fails to load still appears; its fields are simply not listed.
    return [];
  }
}
