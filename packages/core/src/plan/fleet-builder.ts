import type { z } from '@netbench/plugin-api';
import { type CloudPlugin, type LinkShaping, PluginError } from '@netbench/plugin-api';
import { canonicalJson } from '../matrix/canonical-json.js';
import { referencedVariables, substitute } from '../matrix/placeholders.js';
import { pluginFields } from '../spec/plugin-fields.js';
import { HOST_CORE_KEYS } from '../spec/skeleton-schema.js';
import type { HostSpec, Scalar } from '../spec/types.js';
import type { BlockParser } from './parse-block.js';
import type { FleetHost } from './types.js';

/** A fleet host while the plan is built; its id is known only once every use is seen. */
export interface FleetSlot {
  readonly name: string;
  readonly cloud: string;
  readonly config: Readonly<Record<string, unknown>>;
  /** What the cloud declared of the host's link (`CloudPlugin.linkShaping`). */
  readonly shaping?: LinkShaping;
  /** Values of the variables the host's template references, for the id. */
  readonly label: string;
  /** Set for `reuse: false` hosts: the cell index that owns the host. */
  readonly cell?: number;
  id: string;
}

interface Template {
  readonly spec: HostSpec;
  readonly fields: Record<string, unknown>;
  readonly vars: readonly string[];
  /** Variable values → slot, so a 10,000-cell plan substitutes each variant once. */
  readonly byVars: Map<string, FleetSlot>;
  /** Canonical substituted config → slot: two variable combinations giving one config share a host. */
  readonly byConfig: Map<string, FleetSlot>;
}

/**
 * Collects the distinct hosts trials need. A reusable host is keyed by its
 * name and substituted config, so it is provisioned once however many
 * cells use it; a `reuse: false` host gets one slot per cell.
 */
export class FleetBuilder {
  private readonly templates = new Map<string, Template>();

  constructor(
    hosts: Readonly<Record<string, HostSpec>>,
    variableOrder: readonly string[],
    private readonly clouds: ReadonlyMap<string, CloudPlugin<unknown> | undefined>,
    private readonly parser: BlockParser,
  ) {
    for (const [name, spec] of Object.entries(hosts)) {
      const fields = pluginFields(spec, HOST_CORE_KEYS);
      const used = new Set(referencedVariables(fields));
      const vars = variableOrder.filter((v) => used.has(v));
      this.templates.set(name, { spec, fields, vars, byVars: new Map(), byConfig: new Map() });
    }
  }

  use(name: string, cell: Readonly<Record<string, Scalar>>, cellIndex: number): FleetSlot {
    const template = this.templates.get(name);
    if (!template) throw new Error(`unknown host '${name}'`);
    const reuse = template.spec.reuse !== false;
    const varKey = (reuse ? '' : `#${cellIndex}\u0000`) + template.vars.map((v) => JSON.stringify(cell[v])).join('\u0000');
    const known = template.byVars.get(varKey);
    if (known) return known;

    const raw = substitute(template.fields, cell);
    const configKey = (reuse ? '' : `#${cellIndex}\u0000`) + canonicalJson(raw);
    let slot = template.byConfig.get(configKey);
    if (!slot) {
      const label = template.vars.map((v) => `${v}=${String(cell[v])}`).join(',');
      const cloud = this.clouds.get(template.spec.cloud);
      // A cloud that is not installed (official catalog) keeps the fields as written.
      const config = cloud ? (this.parser.parse(cloud.hostSchema as z.ZodType, raw, ['hosts', name], label ? ` (with ${label})` : '') as Record<string, unknown>) : raw;
      const shaping = cloud ? linkShaping(cloud, config) : undefined;
      slot = { name, cloud: template.spec.cloud, config, ...(shaping ? { shaping } : {}), label, ...(reuse ? {} : { cell: cellIndex }), id: name };
      template.byConfig.set(configKey, slot);
    }
    template.byVars.set(varKey, slot);
    return slot;
  }

  /** Assign ids and list the fleet, in spec host order then order of first use. */
  finish(): FleetHost[] {
    const fleet: FleetHost[] = [];
    for (const template of this.templates.values()) {
      const slots = [...template.byConfig.values()];
      for (const slot of slots) {
        if (slot.cell !== undefined) slot.id = `${slot.name}#${slot.cell}`;
        else slot.id = slots.length === 1 ? slot.name : `${slot.name}@${slot.label}`;
        fleet.push({ id: slot.id, name: slot.name, cloud: slot.cloud, config: slot.config, ...(slot.shaping ? { shaping: slot.shaping } : {}) });
      }
    }
    return fleet;
  }
}

/** The cloud's declaration of a host's rate limits (pure, like `trials`): its failure names the plugin. */
function linkShaping(cloud: CloudPlugin<unknown>, config: Readonly<Record<string, unknown>>): LinkShaping | undefined {
  try {
    return cloud.linkShaping?.(config);
  } catch (error) {
    throw new PluginError(cloud.name, 'linkShaping', error);
  }
}
