import type { z } from '@netbench/plugin-api';
import { NetbenchError, PluginError, type Scalar, type ToolPlugin, type TrialSpec } from '@netbench/plugin-api';
import { cpuParams } from '@netbench/plugin-api/tool-kit';
import { LOAD_TOOL, type LoadBlock, loadSchema, loadShape } from '../spec/load-schema.js';
import type { FleetSlot } from './fleet-builder.js';
import type { DraftFlow, DraftFlowTrial } from './plan-flows.js';

/** A tool's trial as the plan keeps it: every parameter defined. */
type PlannedSpec = TrialSpec<Readonly<Record<string, Scalar>>>;

/** The tools a latency-under-load test runs: netperf for bulk flows and UDP probes, ping for ICMP probes, irtt for irtt probes. */
export interface LoadTools {
  readonly netperf: ToolPlugin<unknown>;
  readonly ping: ToolPlugin<unknown>;
  /** Only needed by `probes: [irtt]`. */
  readonly irtt?: ToolPlugin<unknown>;
}

/** The tool names every `tool: load` benchmark needs installed. */
export const LOAD_PARTS = ['netperf', 'ping'] as const;
/** The tool an `irtt` probe needs. */
export const IRTT_PROBE_TOOL = 'irtt';

/** TOS bytes of flent's rrul marks (BE, BK, CS5, EF), for netperf `-Y`. */
const RRUL_MARKS = [
  ['BE', '0x00'],
  ['BK', '0x20'],
  ['CS5', '0xa0'],
  ['EF', '0xb8'],
] as const;

/**
 * Stands in for a tool while the plan reads a `tool: load` block: its schema
 * is the core's, its one trial carries the block's settings. It never runs:
 * the plan turns the trial into flows of netperf and ping (`loadTrial`).
 */
export const loadBenchmarkTool = {
  kind: 'tool',
  name: LOAD_TOOL,
  version: '1',
  description: 'latency under load: flent test names expanded into netperf flows and probes',
  schema: loadSchema,
  trials(block: LoadBlock): PlannedSpec[] {
    const shape = loadShape(block);
    const params: Record<string, Scalar> = {
      duration: block.duration,
      idle: block.idle,
      step: block.step,
      upload_flows: shape.up,
      download_flows: shape.down,
      probes: shape.probes.join('+'),
    };
    if (block.dscp) params.dscp = true;
    // The request, on the trial (summary samples, series key) and handed to every flow's tool.
    Object.assign(params, cpuParams(block.cpus));
    const direction = shape.up > 0 && shape.down > 0 ? 'both' : shape.up > 0 ? 'forward' : shape.down > 0 ? 'reverse' : undefined;
    return [{ test: block.test, params, estimatedSeconds: block.duration + 2 * block.idle, ...(direction ? { traffic: { direction } } : {}) }];
  },
  check() {
    throw new NetbenchError('tool load is a test of netperf and ping flows; it never runs by itself');
  },
  run() {
    throw new NetbenchError('tool load is a test of netperf and ping flows; it never runs by itself');
  },
  parse() {
    return [];
  },
} as unknown as ToolPlugin<unknown>;

/**
 * The synchronized trial of one load test: every probe runs from the
 * barrier for idle + load + idle seconds; every bulk flow starts `idle`
 * seconds after the barrier and runs `duration` seconds (flent's layout).
 */
export function loadTrial(trial: PlannedSpec, tools: LoadTools, client: FleetSlot, server: FleetSlot): DraftFlowTrial {
  const p = trial.params;
  const duration = Number(p.duration);
  const idle = Number(p.idle);
  const step = Number(p.step);
  const total = duration + 2 * idle;
  const flows: DraftFlow[] = [];
  // Every flow's samples say which load test they belong to and its layout, so charts can place them while the trial runs.
  const layout = { load_test: trial.test, load_idle: idle, load_duration: duration, load_step: step, load_flows: Number(p.upload_flows) + Number(p.download_flows) };
  const add = (label: string, tool: ToolPlugin<unknown>, block: Record<string, unknown>, startAfter: number) => {
    const flowTrial = oneTrial(tool, block);
    flows.push({ label, tool: tool.name, trial: { ...flowTrial, params: { ...flowTrial.params, ...layout } }, client, server, ...(startAfter > 0 ? { startAfter } : {}) });
  };
  // The same client and server CPUs for every flow; ping has no server process (the kernel answers), so only its client is pinned.
  const cpus = { ...(p.cpu_client !== undefined ? { client: Number(p.cpu_client) } : {}), ...(p.cpu_server !== undefined ? { server: Number(p.cpu_server) } : {}) };
  const pinned = Object.keys(cpus).length > 0 ? { cpus } : {};
  const pingPinned = cpus.client !== undefined ? { cpus: { client: cpus.client } } : {};
  const bulk = (test: 'TCP_STREAM' | 'TCP_MAERTS', prefix: string, count: number) => {
    for (let i = 0; i < count; i += 1) {
      const mark = p.dscp === true ? RRUL_MARKS[i % RRUL_MARKS.length]! : undefined;
      const block = { tests: [test], duration, streams: 1, demo: -step, ...(mark ? { tos: mark[1] } : {}), ...pinned };
      add(`${prefix}-${i + 1}${mark ? `-${mark[0]}` : ''}`, tools.netperf, block, idle);
    }
  };
  bulk('TCP_STREAM', 'up', Number(p.upload_flows));
  bulk('TCP_MAERTS', 'down', Number(p.download_flows));
  const probes = String(p.probes).split('+');
  if (probes.includes('icmp')) add('icmp', tools.ping, { count: Math.max(1, Math.round(total / step)), interval: step, direction: 'forward', timeout: 1, ...pingPinned }, 0);
  if (probes.includes('udp')) add('udp', tools.netperf, { tests: ['UDP_RR'], duration: Math.max(1, Math.round(total)), streams: 1, demo: -step, ...pinned }, 0);
  if (probes.includes('irtt')) {
    // The spec check refuses irtt probes without the plugin; this guards a plan made some other way.
    if (!tools.irtt) throw new NetbenchError('a load test with irtt probes needs the irtt tool plugin with flows support, which is not installed');
    add('irtt', tools.irtt, { interval: step, duration: total, ...pinned }, 0);
  }
  return { trial, flows };
}

/** The one trial a tool derives from a block the plan wrote (every value is valid by construction). */
function oneTrial(tool: ToolPlugin<unknown>, block: Record<string, unknown>): PlannedSpec {
  const parsed = (tool.schema as z.ZodType).safeParse(block);
  if (!parsed.success) throw new PluginError(tool.name, 'trials', new Error(`refused the block of a load test ${JSON.stringify(block)}: ${parsed.error.message}`));
  let trials: TrialSpec[];
  try {
    trials = tool.trials(parsed.data);
  } catch (error) {
    throw new PluginError(tool.name, 'trials', error);
  }
  const [first] = trials;
  if (!first) throw new PluginError(tool.name, 'trials', new Error(`no trial for ${JSON.stringify(block)}`));
  const params = Object.fromEntries(Object.entries(first.params).filter((entry): entry is [string, Scalar] => entry[1] !== undefined));
  return { ...first, params };
}
