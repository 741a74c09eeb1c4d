import type { RawIssue } from '../issues/spec-error.js';
import { type Cell, expandMatrixChecked } from '../matrix/expand-matrix.js';
import { isPlainObject } from '../matrix/placeholders.js';
import type { PluginResolver } from '../registry/types.js';
import { BlockValidator } from './block-validator.js';
import { checkFlowHosts } from './check-flows.js';
import { checkLoadBenchmark } from './check-load.js';
import { checkTunnels } from './check-tunnels.js';
import { checkVariables } from './check-variables.js';
import { suggestion } from './did-you-mean.js';
import { LOAD_TOOL } from './load-schema.js';
import type { ParsedBlocks } from './parsed-blocks.js';
import { pluginFields } from './plugin-fields.js';
import { PluginLookup } from './plugin-lookup.js';
import { BENCHMARK_CORE_KEYS, HOST_CORE_KEYS, matrixSchema, PUBLISH_CORE_KEYS, type SkeletonOutput, specSkeleton } from './skeleton-schema.js';
import type { MatrixSpec } from './types.js';
import { zodIssues } from './zod-issues.js';

export interface SpecCheck {
  readonly issues: RawIssue[];
  readonly warnings: string[];
  /** Present when the skeleton is valid. */
  readonly skeleton?: SkeletonOutput;
  readonly matrix?: MatrixSpec;
}

type Raw = Record<string, unknown>;

/**
 * Every check of a parsed spec document: the core skeleton, the matrix and
 * its filters, host references, `${var}` references, and each block against
 * its plugin's schema. Collects all problems; never stops at the first.
 */
export async function checkSpec(raw: unknown, resolver: PluginResolver, blocks?: ParsedBlocks): Promise<SpecCheck> {
  if (!isPlainObject(raw)) {
    return { issues: [{ path: [], message: 'the spec must be a mapping with name, hosts and benchmarks' }], warnings: [] };
  }
  const issues: RawIssue[] = [];
  const warnings = new Set<string>();
  const skeleton = specSkeleton.safeParse(raw);
  if (!skeleton.success) issues.push(...zodIssues(skeleton.error.issues, raw, specSkeleton));

  const { matrix, cells, variables } = checkMatrix(raw.matrix, issues);
  const lookup = new PluginLookup(resolver);
  const validator = new BlockValidator(blocks);
  const hosts = isPlainObject(raw.hosts) ? raw.hosts : {};
  const hostNames = Object.keys(hosts);

  for (const [name, host] of Object.entries(hosts)) {
    if (!isPlainObject(host)) continue;
    const fields = pluginFields(host, HOST_CORE_KEYS);
    const defined = checkVariables(fields, ['hosts', name], variables, issues);
    if (typeof host.cloud !== 'string') continue;
    const found = await lookup.find('cloud', host.cloud, ['hosts', name, 'cloud']);
    if (found.status === 'missing') issues.push(found.issue);
    else if (found.status === 'catalog') warnings.add(found.warning);
    else {
      issues.push(...validator.validate({ path: ['hosts', name], fields, schema: found.plugin.hostSchema, coreKeys: HOST_CORE_KEYS }, defined ? cells : undefined));
    }
  }

  const used = new Set<string>();
  const benchmarks = Array.isArray(raw.benchmarks) ? raw.benchmarks : [];
  for (const [index, bench] of benchmarks.entries()) {
    if (!isPlainObject(bench)) continue;
    const base = ['benchmarks', index];
    checkHostReferences(bench, base, hostNames, used, issues);
    checkVariables(bench.name, [...base, 'name'], variables, issues);
    const fields = pluginFields(bench, BENCHMARK_CORE_KEYS);
    const defined = checkVariables(fields, base, variables, issues);
    if (typeof bench.tool !== 'string') continue;
    if (bench.tool === LOAD_TOOL) {
      issues.push(...(await checkLoadBenchmark(bench, base, fields, lookup, validator, defined ? cells : undefined)));
      continue;
    }
    const found = await lookup.find('tool', bench.tool, [...base, 'tool']);
    if (found.status === 'missing') issues.push(found.issue);
    else if (found.status === 'catalog') warnings.add(found.warning);
    else {
      issues.push(...validator.validate({ path: base, fields, schema: found.plugin.schema, coreKeys: BENCHMARK_CORE_KEYS }, defined ? cells : undefined));
      if (bench.flows !== undefined && !found.plugin.flows)
        issues.push({ path: [...base, 'flows'], message: `tool '${bench.tool}' cannot run synchronized flows (its plugin does not declare \`flows\`)` });
    }
  }

  issues.push(...checkTunnels(raw, hostNames));
  await checkPublishers(raw.publish, lookup, validator, issues, warnings, resolver);
  for (const name of hostNames) {
    if (!used.has(name) && benchmarks.length > 0) warnings.add(`host '${name}' is not used by any benchmark; it will not be provisioned`);
  }
  return { issues, warnings: [...warnings], ...(skeleton.success ? { skeleton: skeleton.data } : {}), ...(matrix ? { matrix } : {}) };
}

function checkMatrix(rawMatrix: unknown, issues: RawIssue[]): { matrix?: MatrixSpec; cells?: Cell[]; variables: Set<string> } {
  if (rawMatrix === undefined) return { cells: [{}], variables: new Set() };
  const variables = new Set<string>();
  // Best effort even when the matrix is malformed, so `${var}` checks still run.
  if (isPlainObject(rawMatrix)) {
    if (isPlainObject(rawMatrix.axes)) Object.keys(rawMatrix.axes).forEach((name) => variables.add(name));
    if (Array.isArray(rawMatrix.zip)) {
      for (const group of rawMatrix.zip) if (isPlainObject(group)) Object.keys(group).forEach((name) => variables.add(name));
    }
  }
  const parsed = matrixSchema.safeParse(rawMatrix);
  if (!parsed.success) return { variables }; // the skeleton parse already reported why
  const matrix = normaliseMatrix(parsed.data);
  const listed = Array.isArray(parsed.data.filter);
  const filterPaths = matrix.filters.map((_, i) => (listed ? ['matrix', 'filter', i] : ['matrix', 'filter']));
  const expansion = expandMatrixChecked(matrix, { filterPaths });
  issues.push(...expansion.issues);
  return { matrix, variables, ...(expansion.issues.length === 0 ? { cells: expansion.cells } : {}) };
}

export function normaliseMatrix(data: { axes?: MatrixSpec['axes']; zip?: MatrixSpec['zip']; filter?: string | string[] }): MatrixSpec {
  const filter = data.filter;
  return { axes: data.axes ?? {}, zip: data.zip ?? [], filters: filter === undefined ? [] : typeof filter === 'string' ? [filter] : filter };
}

function checkHostReferences(bench: Raw, base: (string | number)[], hostNames: readonly string[], used: Set<string>, issues: RawIssue[]): void {
  for (const role of ['client', 'server'] as const) {
    const name = bench[role];
    if (typeof name !== 'string') continue;
    if (hostNames.includes(name)) used.add(name);
    else {
      const list = hostNames.length > 0 ? `; hosts: ${hostNames.join(', ')}` : '';
      issues.push({ path: [...base, role], message: `unknown host '${name}'${suggestion(name, hostNames)}${list}` });
    }
  }
  if (typeof bench.client === 'string' && bench.client === bench.server) {
    issues.push({ path: [...base, 'server'], message: `client and server must be different hosts (both are '${bench.client}')` });
  }
  issues.push(...checkFlowHosts(bench.flows, [...base, 'flows'], hostNames, used));
}

async function checkPublishers(
  publish: unknown,
  lookup: PluginLookup,
  validator: BlockValidator,
  issues: RawIssue[],
  warnings: Set<string>,
  resolver: PluginResolver,
): Promise<void> {
  if (publish === undefined) {
    if (!resolver.list('publisher').some((d) => d.name === 'json')) {
      warnings.add(`the default publisher 'json' is not installed; results stay in the run folder only`);
    }
    return;
  }
  if (!Array.isArray(publish)) return;
  for (const [index, entry] of publish.entries()) {
    if (!isPlainObject(entry) || typeof entry.type !== 'string') continue;
    const base = ['publish', index];
    const found = await lookup.find('publisher', entry.type, [...base, 'type']);
    if (found.status === 'missing') issues.push(found.issue);
    else if (found.status === 'catalog') warnings.add(found.warning);
    // Publisher settings are not per cell: `${...}` in them is literal text.
    else issues.push(...validator.validateLiteral({ path: base, fields: pluginFields(entry, PUBLISH_CORE_KEYS), schema: found.plugin.schema, coreKeys: PUBLISH_CORE_KEYS }));
  }
}
