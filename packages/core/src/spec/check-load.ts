import type { RawIssue } from '../issues/spec-error.js';
import type { BlockValidator } from './block-validator.js';
import { loadSchema } from './load-schema.js';
import type { PluginLookup } from './plugin-lookup.js';
import { BENCHMARK_CORE_KEYS } from './skeleton-schema.js';
import type { Scalar } from './types.js';

/** The tools every load test's flows run (irtt too with `probes: [irtt]`). */
const PARTS = ['netperf', 'ping'] as const;

/**
 * A `tool: load` benchmark (docs/latency-under-load.md): its block against
 * the core's load schema, one client/server pair (no `flows:`: the test
 * decides its flows), and the netperf and ping plugins it runs (and irtt,
 * for irtt probes) installed with flows support.
 */
export async function checkLoadBenchmark(
  bench: Record<string, unknown>,
  base: readonly (string | number)[],
  fields: Record<string, unknown>,
  lookup: PluginLookup,
  validator: BlockValidator,
  cells: readonly Readonly<Record<string, Scalar>>[] | undefined,
): Promise<RawIssue[]> {
  const issues = validator.validate({ path: base, fields, schema: loadSchema, coreKeys: BENCHMARK_CORE_KEYS }, cells);
  if (bench.flows !== undefined)
    issues.push({ path: [...base, 'flows'], message: 'a load test makes its own flows between client and server; give client and server instead of flows' });
  const probes = Array.isArray(fields.probes) ? fields.probes : [];
  for (const name of probes.includes('irtt') ? [...PARTS, 'irtt'] : PARTS) {
    const path = name === 'irtt' ? [...base, 'probes', probes.indexOf('irtt')] : [...base, 'tool'];
    const found = await lookup.find('tool', name, path);
    if (found.status !== 'found') issues.push({ path, message: `a load test runs ${name}, whose tool plugin is not installed` });
    else if (!found.plugin.flows) issues.push({ path, message: `a load test runs ${name} as flows, which its plugin does not support` });
  }
  return issues;
}
