import type { CloudPlugin, ToolPlugin, TrialSpec, z } from '@netbench/plugin-api';
import { NetbenchError, PluginError } from '@netbench/plugin-api';
import { type SpecError, specErrorWithoutPositions } from '../issues/spec-error.js';
import { expandMatrixChecked } from '../matrix/expand-matrix.js';
import { referencedVariables, substitute } from '../matrix/placeholders.js';
import type { PluginResolver } from '../registry/types.js';
import { LOAD_TOOL } from '../spec/load-schema.js';
import type { ParsedBlocks } from '../spec/parsed-blocks.js';
import { pluginFields } from '../spec/plugin-fields.js';
import { OFFICIAL_CATALOG } from '../spec/plugin-lookup.js';
import { BENCHMARK_CORE_KEYS, PUBLISH_CORE_KEYS } from '../spec/skeleton-schema.js';
import type { BenchmarkSpec, Scalar, Spec } from '../spec/types.js';
import { FleetBuilder, type FleetSlot } from './fleet-builder.js';
import { repeatAndOrder } from './order-trials.js';
import { BlockParser } from './parse-block.js';
import { type DraftFlow, flowTrials } from './plan-flows.js';
import { IRTT_PROBE_TOOL, LOAD_PARTS, type LoadTools, loadBenchmarkTool, loadTrial } from './plan-load.js';
import type { Plan, PlannedFlow, PlannedTrial } from './types.js';

interface BenchmarkTemplate {
  readonly index: number;
  readonly spec: BenchmarkSpec;
  readonly tool: ToolPlugin<unknown>;
  readonly fields: Record<string, unknown>;
  readonly vars: readonly string[];
  /** Variable values → trials and display name, so each variant calls `trials()` once. */
  readonly byVars: Map<string, { readonly trials: readonly PlannedSpec[]; readonly name: string }>;
  /** The tools of a `tool: load` benchmark's flows. */
  readonly parts?: LoadTools;
}

interface Draft {
  readonly bench: BenchmarkTemplate;
  readonly name: string;
  readonly trial: PlannedSpec;
  readonly client: FleetSlot;
  readonly server: FleetSlot;
  readonly cell: Readonly<Record<string, Scalar>>;
  readonly flows?: readonly DraftFlow[];
}

/**
 * Expand the matrix into trials and the deduplicated fleet. Pure apart from
 * importing the plugins the spec names; `tool.trials()` is called once per
 * distinct substituted benchmark block. `blocks` (from `loadSpec`) holds the
 * blocks validation parsed: they are not parsed again.
 */
export async function createPlan(spec: Spec, resolver: PluginResolver, blocks?: ParsedBlocks): Promise<Plan> {
  const file = spec.source?.file ?? '';
  const expansion = expandMatrixChecked(spec.matrix);
  if (expansion.issues.length > 0) throw specErrorWithoutPositions(expansion.issues, file);

  const parser = new BlockParser(file, blocks);
  const benches = await Promise.all(spec.benchmarks.map((bench, index) => benchmarkTemplate(bench, index, resolver)));
  const fleet = new FleetBuilder(spec.hosts, expansion.variables, await fleetClouds(spec, resolver), parser);

  const drafts: Draft[] = [];
  const repetitions = Math.max(1, spec.options.repetitions ?? 1);
  expansion.cells.forEach((cell, cellIndex) => {
    // Counted as they are made: a spec past the limit stops here, before its trials fill memory.
    if (drafts.length * repetitions > MAX_TRIALS) throw tooManyTrials(drafts.length, repetitions, cellIndex, expansion.cells.length, file);
    for (const bench of benches) {
      const variant = benchmarkVariant(bench, cell, parser);
      if (bench.spec.tool === LOAD_TOOL) {
        const client = fleet.use(bench.spec.client, cell, cellIndex);
        const server = fleet.use(bench.spec.server, cell, cellIndex);
        for (const trial of variant.trials) {
          const sync = loadTrial(trial, bench.parts!, client, server);
          drafts.push({ bench, name: variant.name, trial: sync.trial, client, server, cell, flows: sync.flows });
        }
        continue;
      }
      if (bench.spec.flows) {
        const use = (host: string) => fleet.use(host, cell, cellIndex);
        for (const sync of flowTrials(bench.spec.flows, variant.trials, use, bench.tool.name)) {
          drafts.push({ bench, name: variant.name, trial: sync.trial, client: sync.flows[0]!.client, server: sync.flows[0]!.server, cell, flows: sync.flows });
        }
        continue;
      }
      const client = fleet.use(bench.spec.client, cell, cellIndex);
      const server = fleet.use(bench.spec.server, cell, cellIndex);
      for (const trial of variant.trials) drafts.push({ bench, name: variant.name, trial, client, server, cell });
    }
  });

  if (drafts.length * repetitions > MAX_TRIALS) throw tooManyTrials(drafts.length, repetitions, expansion.cells.length, expansion.cells.length, file);
  const fleetHosts = fleet.finish();
  const { ordered, seed } = repeatAndOrder(drafts, spec.options);
  const repeated = (spec.options.repetitions ?? 1) > 1;
  const width = Math.max(4, String(ordered.length).length);
  let measuring = 0;
  const trials = ordered.map(({ item: d, repetition }, index): PlannedTrial => {
    measuring += d.trial.estimatedSeconds;
    return {
      id: `t${String(index + 1).padStart(width, '0')}`,
      index,
      benchmark: d.bench.index,
      benchmarkName: d.name,
      tool: d.bench.spec.tool,
      test: d.trial.test,
      // The repetition is a parameter so it labels every sample (tools ignore keys they do not know).
      params: repeated ? { ...d.trial.params, repetition } : d.trial.params,
      client: d.client.id,
      server: d.server.id,
      ip: d.bench.spec.ip,
      cell: d.cell,
      estimatedSeconds: d.trial.estimatedSeconds,
      ...(d.trial.traffic ? { traffic: d.trial.traffic } : {}),
      ...(d.trial.search ? { search: { ...d.trial.search, group: `${d.bench.index}/${JSON.stringify(d.cell)}/${repetition}/${d.trial.search.group}` } } : {}),
      ...(d.flows ? { flows: plannedFlows(d.flows, d.bench.spec, repeated ? repetition : undefined) } : {}),
    };
  });
  return {
    // A drawn seed is recorded in the spec, so the run can be planned again in the same order.
    spec: seed !== undefined && spec.options.seed === undefined ? { ...spec, options: { ...spec.options, seed } } : spec,
    fleet: fleetHosts,
    trials,
    cells: expansion.cells.length,
    estimatedSeconds: measuring / Math.max(1, spec.options.concurrency),
    publishSettings: await publishSettings(spec, resolver, parser),
  };
}

/** Publisher settings are not per cell (`${...}` is literal there): each entry parsed as validation parsed it. */
async function publishSettings(spec: Spec, resolver: PluginResolver, parser: BlockParser): Promise<unknown[]> {
  return Promise.all(
    spec.publish.map(async (entry, index) => {
      const publisher = await resolver.get('publisher', entry.type);
      return publisher ? parser.parse(publisher.schema as z.ZodType, pluginFields(entry, PUBLISH_CORE_KEYS), ['publish', index], '') : undefined;
    }),
  );
}

/**
 * The most trials one plan may hold. A real study is thousands (PKB's
 * all-region matrix is ~10,000); a few KB of matrix and parameter lists can
 * multiply to millions (6.4 M trials, 4 GB, from a 2.9 KB spec), which no run
 * finishes and which would exhaust memory while planning.
 */
export const MAX_TRIALS = 100_000;

function tooManyTrials(drafts: number, repetitions: number, cellsDone: number, cells: number, file: string): SpecError {
  const counted = drafts * repetitions;
  const sofar =
    cellsDone < cells
      ? `at least ${counted.toLocaleString('en-US')} trials after ${cellsDone.toLocaleString('en-US')} of ${cells.toLocaleString('en-US')} matrix cells`
      : `${counted.toLocaleString('en-US')} trials`;
  return specErrorWithoutPositions(
    [
      {
        path: ['matrix'],
        message: `the spec plans ${sofar}${repetitions > 1 ? ` (with options.repetitions: ${repetitions})` : ''}; the limit is ${MAX_TRIALS.toLocaleString('en-US')}. Narrow the matrix (filters, fewer values), or split the study into several specs`,
      },
    ],
    file,
  );
}

async function benchmarkTemplate(spec: BenchmarkSpec, index: number, resolver: PluginResolver): Promise<BenchmarkTemplate> {
  if (spec.tool === LOAD_TOOL) return loadTemplate(spec, index, resolver);
  const tool = await resolver.get('tool', spec.tool);
  if (!tool) {
    const why = OFFICIAL_CATALOG.tool.includes(spec.tool) ? `needs @netbench/plugin-${spec.tool}, which is not installed` : 'is not installed';
    throw new NetbenchError(`benchmarks.${index}: tool '${spec.tool}' ${why}; cannot plan its trials`);
  }
  if (spec.flows && !tool.flows) throw new NetbenchError(`benchmarks.${index}.flows: tool '${spec.tool}' cannot run synchronized flows (its plugin does not declare \`flows\`)`);
  const fields = pluginFields(spec, BENCHMARK_CORE_KEYS);
  const vars = referencedVariables([fields, spec.name ?? '']);
  return { index, spec, tool, fields, vars, byVars: new Map() };
}

async function loadTemplate(spec: BenchmarkSpec, index: number, resolver: PluginResolver): Promise<BenchmarkTemplate> {
  const [netperf, ping] = await Promise.all(LOAD_PARTS.map((name) => resolver.get('tool', name)));
  // irtt is needed only by irtt probes (the spec check names it there when missing); a test without them never depends on it.
  const irtt = await resolver.get('tool', IRTT_PROBE_TOOL).catch(() => undefined);
  for (const [name, tool] of [
    ['netperf', netperf],
    ['ping', ping],
  ] as const) {
    if (!tool?.flows) throw new NetbenchError(`benchmarks.${index}: a load test needs the ${name} tool plugin with flows support, which is not installed`);
  }
  const fields = pluginFields(spec, BENCHMARK_CORE_KEYS);
  const vars = referencedVariables([fields, spec.name ?? '']);
  return { index, spec, tool: loadBenchmarkTool, fields, vars, byVars: new Map(), parts: { netperf: netperf!, ping: ping!, ...(irtt?.flows ? { irtt } : {}) } };
}

function benchmarkVariant(bench: BenchmarkTemplate, cell: Readonly<Record<string, Scalar>>, parser: BlockParser) {
  const key = bench.vars.map((v) => JSON.stringify(cell[v])).join('\u0000');
  const known = bench.byVars.get(key);
  if (known) return known;
  const label = bench.vars.map((v) => `${v}=${String(cell[v])}`).join(', ');
  const params = parser.parse(bench.tool.schema as z.ZodType, substitute(bench.fields, cell), ['benchmarks', bench.index], label ? ` (with ${label})` : '');
  let trials: TrialSpec[];
  try {
    trials = bench.tool.trials(params);
  } catch (error) {
    throw new PluginError(bench.tool.name, 'trials', error);
  }
  if (!Array.isArray(trials) || trials.some((t) => typeof t?.test !== 'string' || typeof t.estimatedSeconds !== 'number')) {
    throw new PluginError(bench.tool.name, 'trials', new Error('must return an array of { test, params, estimatedSeconds }'));
  }
  const variant = { trials: trials.map(withDefinedParams), name: substitute(bench.spec.name ?? bench.spec.tool, cell) };
  bench.byVars.set(key, variant);
  return variant;
}

/** The clouds the spec uses; `undefined` for an official cloud not installed. */
async function fleetClouds(spec: Spec, resolver: PluginResolver): Promise<Map<string, CloudPlugin<unknown> | undefined>> {
  const schemas = new Map<string, CloudPlugin<unknown> | undefined>();
  for (const host of Object.values(spec.hosts)) {
    if (schemas.has(host.cloud)) continue;
    const cloud = await resolver.get('cloud', host.cloud);
    if (!cloud && !OFFICIAL_CATALOG.cloud.includes(host.cloud)) {
      throw new NetbenchError(`cloud '${host.cloud}' is not installed; cannot plan its hosts`);
    }
    schemas.set(host.cloud, cloud as CloudPlugin<unknown> | undefined);
  }
  return schemas;
}

function plannedFlows(flows: readonly DraftFlow[], bench: BenchmarkSpec, repetition: number | undefined): PlannedFlow[] {
  return flows.map((flow) => ({
    label: flow.label,
    tool: flow.tool ?? bench.tool,
    test: flow.trial.test,
    params: repetition !== undefined ? { ...flow.trial.params, repetition } : flow.trial.params,
    client: flow.client.id,
    server: flow.server.id,
    ip: bench.ip,
    estimatedSeconds: flow.trial.estimatedSeconds,
    ...(flow.trial.traffic ? { traffic: flow.trial.traffic } : {}),
    ...(flow.startAfter !== undefined ? { startAfter: flow.startAfter } : {}),
  }));
}

/** A tool's trial as the plan keeps it: every parameter defined. */
type PlannedSpec = TrialSpec<Readonly<Record<string, Scalar>>>;

/** A trial whose `undefined` parameters are left out: they are no parameters (and no labels). */
function withDefinedParams(trial: TrialSpec): PlannedSpec {
  const entries = Object.entries(trial.params);
  if (entries.every(([, value]) => value !== undefined)) return trial as PlannedSpec;
  return { ...trial, params: Object.fromEntries(entries.filter((entry): entry is [string, Scalar] => entry[1] !== undefined)) };
}
