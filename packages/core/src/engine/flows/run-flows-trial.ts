import { join } from 'node:path';
import type { PlannedFlow, PlannedTrial } from '../../plan/types.js';
import type { FlowContext, Host, Labels, Sample, SampleInput, ToolPlugin, TrialContext, TrialRecord, TrialRun } from '@netbench/plugin-api';
import { NetbenchError, RetryableError, isRetryable } from '@netbench/plugin-api';
import { trialLabels } from '../sample-labels.js';
import { makeSample, recordSamples } from '../record-samples.js';
import { call, errorMessage, pluginLogger, toolInfoKey, type RunState } from '../run-state.js';
import { specDirOf } from '../spec-dir.js';
import { targetAddress } from '../tunnels-phase.js';
import { trialCounters } from '../trial-counters.js';
import { aggregateFlows, commonLabels, type FlowOutcome } from './aggregate-flows.js';
import { Barrier } from './barrier.js';
import { loadSummary } from './load-summary.js';
import { LOAD_TOOL } from '../../spec/load-schema.js';
import { setTimeout as sleep } from 'node:timers/promises';

/** Seconds a flow may run on after the first flow finished before the trial stops it. */
const STRAGGLER_MIN_S = 5;
const STRAGGLER_FRACTION = 0.25;

/**
 * One synchronized trial (docs/flows.md): every flow's `run` at once, each
 * waiting at one barrier after its setup so the measuring processes start
 * together; interval samples emitted as they come and stored with the attempt's other samples if it succeeds; when one flow fails the
 * others are aborted (their raw output is kept by the tool) and the trial
 * fails; a flow still running well after the first one finished is stopped.
 * Then the aggregates. Resolves to whether the trial succeeded; never throws.
 */
export async function runFlowsTrial(state: RunState, trial: PlannedTrial): Promise<boolean> {
  const flows = trial.flows ?? [];
  const { retries, trialTimeout } = state.plan.spec.options;
  const timeoutMs = Math.round((trial.estimatedSeconds + trialTimeout) * 1000);
  const startedAt = new Date();
  const began = performance.now();
  const rawFiles: string[] = [];
  let sampleCount = 0;
  const finish = (status: TrialRecord['status'], attempts: number, error?: string, explain?: TrialRecord['explain']) => {
    state.trials.set(trial.id, {
      ...state.trials.get(trial.id)!,
      status, attempts, rawFiles, sampleCount,
      startedAt: startedAt.toISOString(), finishedAt: new Date().toISOString(),
      ...(error !== undefined ? { error } : {}),
      ...(explain !== undefined ? { explain } : {}),
    });
    state.events.emit({ type: 'trial-finished', trial: trial.id, status, durationMs: Math.round(performance.now() - began), samples: sampleCount, ...(error !== undefined ? { error } : {}) });
    return status === 'succeeded';
  };

  const prepared = flows.map((flow) => prepareFlow(state, trial, flow));
  const missing = prepared.find((p) => typeof p === 'string');
  if (typeof missing === 'string') return finish('failed', 0, missing);
  const ready = prepared as PreparedFlow[];

  for (let attempt = 0; ; attempt += 1) {
    state.events.emit({ type: 'trial-started', trial: trial.id, index: trial.index, total: state.plan.trials.length, tool: trial.tool, test: trial.test, attempt, estimatedSeconds: trial.estimatedSeconds });
    const rawPrefix = attempt === 0 ? trial.id : `${trial.id}-retry${attempt}`;
    const attemptStart = Date.now();
    const counters = trialCounters(state, trial, flowEnds(ready), {});
    try {
      const outcomes = await runOnce(state, trial, ready, { attempt, timeoutMs, rawPrefix, rawFiles, onSamples: (n) => (sampleCount += n) });
      const aggregates = aggregateFlows(outcomes, flowsCombine(ready), Date.now());
      const context = commonLabels(ready.map((p) => p.labels));
      if (trial.tool === LOAD_TOOL) aggregates.push(...loadTrialSummary(state, trial, outcomes, attemptStart));
      const samples = aggregates.map((input) => makeSample(state, input, { ...context, ...input.labels }, Date.now(), trial.id));
      recordSamples(state, samples);
      sampleCount += samples.length;
      return finish('succeeded', attempt + 1, undefined, await counters?.finish(trial.tool, trial.test, samples));
    } catch (error) {
      counters?.cancel();
      if (!state.signal.aborted && attempt < retries && isRetryable(error)) {
        state.events.emit({ type: 'warning', plugin: trial.tool, message: `trial ${trial.id} attempt ${attempt + 1} failed, retrying: ${errorMessage(error)}` });
        continue;
      }
      return finish('failed', attempt + 1, errorMessage(error));
    }
  }
}

/** Every host of the flows once, in the role it first plays (a mesh host is client of one flow and server of another). */
function flowEnds(flows: readonly PreparedFlow[]): { role: 'client' | 'server'; host: Host }[] {
  const seen = new Map<string, { role: 'client' | 'server'; host: Host }>();
  for (const flow of flows) {
    for (const [role, host] of [['client', flow.run.client], ['server', flow.run.server]] as const) if (!seen.has(host.id)) seen.set(host.id, { role, host });
  }
  return [...seen.values()];
}

/** How a metric combines: as the first of the flows' tools that combines it says (tools name their metrics apart). */
function flowsCombine(flows: readonly PreparedFlow[]): (metric: string, unit: string) => 'sum' | 'mean' | undefined {
  const tools = [...new Set(flows.map((p) => p.tool))];
  return (metric, unit) => {
    for (const tool of tools) {
      const how = tool.flows?.combine(metric, unit);
      if (how) return how;
    }
    return undefined;
  };
}

/** A load test's summary (load-summary.ts) from this attempt's samples: the window starts at the first flow's release. */
function loadTrialSummary(state: RunState, trial: PlannedTrial, outcomes: readonly FlowOutcome[], since: number): SampleInput[] {
  const starts = outcomes.flatMap((o) => (o.startedAt !== undefined ? [o.startedAt] : []));
  if (starts.length === 0) return [];
  const intervals = state.samples.filter((s) => s.trialId === trial.id && s.labels.series === 'interval' && s.timestamp >= since);
  const window = { t0: Math.min(...starts), idleSeconds: Number(trial.params.idle), loadSeconds: Number(trial.params.duration) };
  const test = { tool: LOAD_TOOL, test: trial.test, ...trial.params };
  return loadSummary(window, intervals, outcomes.flatMap((o) => o.samples)).map((input) => ({ ...input, labels: { ...test, ...input.labels } }));
}

interface PreparedFlow {
  readonly flow: PlannedFlow;
  readonly tool: ToolPlugin<unknown>;
  readonly run: Omit<TrialRun, 'attempt'>;
  /** Context labels of the flow's samples: the trial's, its own pair and `flow`. */
  readonly labels: Labels;
}

/** The flow's hosts, target and labels; a string says why it cannot run. */
function prepareFlow(state: RunState, trial: PlannedTrial, flow: PlannedFlow): PreparedFlow | string {
  const tool = state.tools.get(flow.tool)!;
  const client = state.hosts.get(flow.client)!;
  const server = state.hosts.get(flow.server)!;
  const clientInfo = state.toolInfo.get(toolInfoKey(flow.tool, flow.client))!;
  const serverInfo = state.toolInfo.get(toolInfoKey(flow.tool, flow.server))!;
  const serverHandle = state.servers.find((s) => s.tool.name === flow.tool && s.host === flow.server)?.handle;
  const target = targetAddress(state, flow.ip, client, server);
  if (!target) return `flow ${flow.label}: host ${server.id} has no ${flow.ip} address`;
  const asTrial: PlannedTrial = { ...trial, tool: flow.tool, test: flow.test, params: flow.params, client: flow.client, server: flow.server, ip: flow.ip };
  const labels = {
    ...trialLabels({ runId: state.runId, specName: state.plan.spec.name, netbenchVersion: state.netbenchVersion, trial: asTrial, client, server, clientInfo, serverInfo }),
    flow: flow.label,
    flow_count: trial.flows?.length ?? 1,
  };
  const run = { id: trial.id, test: flow.test, params: flow.params, client, server, target, clientInfo, serverInfo, ...(serverHandle ? { serverHandle } : {}) };
  return { flow, tool, run, labels };
}

interface AttemptOptions {
  readonly attempt: number;
  readonly timeoutMs: number;
  readonly rawPrefix: string;
  readonly rawFiles: string[];
  readonly onSamples: (count: number) => void;
}

/** Every flow once, at once. Resolves to each flow's outcome, or rejects with the first failure. */
async function runOnce(state: RunState, trial: PlannedTrial, flows: readonly PreparedFlow[], options: AttemptOptions): Promise<FlowOutcome[]> {
  const barrier = new Barrier(flows.length);
  const stop = new AbortController();
  const starts: (number | undefined)[] = flows.map(() => undefined);
  let firstDone: ReturnType<typeof setTimeout> | undefined;
  const graceMs = Math.max(STRAGGLER_MIN_S, trial.estimatedSeconds * STRAGGLER_FRACTION) * 1000;
  // Flows may end at different times by design (a load test's probes outlast its bulk flows).
  const ends = flows.map((p) => (p.flow.startAfter ?? 0) + p.flow.estimatedSeconds);
  const lastEnd = Math.max(...ends);
  let failure: Error | undefined;
  const intervals: Sample[] = [];
  const firstData: (number | undefined)[] = flows.map(() => undefined);
  const fail = (error: Error) => {
    failure ??= error;
    barrier.break(error);
    stop.abort(error);
  };

  const runs = flows.map(async (prepared, index) => {
    const { flow, tool } = prepared;
    let reached = false;
    const flowContext: FlowContext = {
      label: flow.label,
      index,
      count: flows.length,
      release: async () => {
        reached = true;
        await barrier.arrive();
        if (flow.startAfter) await sleep(flow.startAfter * 1000, undefined, { signal: AbortSignal.any([stop.signal, state.signal]) });
      },
      started: () => {
        starts[index] ??= performance.timeOrigin + performance.now();
      },
      interval: (input) => {
        const sample = toSample(state, trial, { ...prepared.labels, series: 'interval' }, input);
        if (!sample) return;
        // Shown live, stored only if this attempt succeeds: a failed attempt's series must not join the retry's.
        intervals.push(sample);
        // An interval's data began its length before its report (`interval_seconds`, as netperf's demo lines give it).
        const length = Number(sample.labels['interval_seconds']);
        firstData[index] = Math.min(firstData[index] ?? Infinity, sample.timestamp - (Number.isFinite(length) && length > 0 ? length * 1000 : 0));
        state.events.emit({ type: 'trial-interval', trial: trial.id, samples: [sample] });
      },
    };
    try {
      const output = await call(state, tool, 'run', (signal) => tool.run({ ...prepared.run, attempt: options.attempt }, flowTrialContext(state, trial, prepared, AbortSignal.any([signal, stop.signal]), options, flowContext)), { timeoutMs: options.timeoutMs, signal: state.signal });
      if (!reached) throw new NetbenchError(`[plugin ${tool.name}] flow ${flow.label}: run finished without waiting at ctx.flow.release()`);
      if (!Array.isArray(output?.samples)) throw new NetbenchError(`[plugin ${tool.name}] flow ${flow.label}: run returned no samples array`);
      // The others should finish about now: all flows run the same duration.
      const waitMs = graceMs + (lastEnd - ends[index]!) * 1000;
      firstDone ??= setTimeout(() => fail(new NetbenchError(`flow(s) still running ${Math.round(waitMs / 1000)} s after flow ${flow.label} finished; stopped`)), waitMs);
      return output.samples;
    } catch (error) {
      const reason = error instanceof Error ? error : new Error(String(error));
      // Only the first failure names the cause; the others were stopped because of it.
      fail(failure ? reason : wrap(flow.label, reason));
      throw reason;
    }
  });
  const settled = await Promise.allSettled(runs);
  clearTimeout(firstDone);
  if (failure) throw failure;
  state.signal.throwIfAborted();

  recordSamples(state, intervals);
  options.onSamples(intervals.length);
  const outcomes: FlowOutcome[] = [];
  for (const [index, result] of settled.entries()) {
    const prepared = flows[index]!;
    if (result.status === 'rejected') throw result.reason;
    const samples = result.value.flatMap((input) => toSample(state, trial, prepared.labels, input, Date.now()) ?? []);
    const startedAt = starts[index];
    if (startedAt !== undefined && starts.every((s) => s !== undefined)) {
      const offset = startedAt - Math.min(...(starts as number[]));
      samples.push(makeSample(state, { metric: 'flow_start_offset', value: Math.round(offset * 1000) / 1000, unit: 'ms' }, prepared.labels, Date.now(), trial.id));
    }
    recordSamples(state, samples);
    options.onSamples(samples.length);
    outcomes.push({ label: prepared.flow.label, samples: samples.filter((s) => s.metric !== 'flow_start_offset'), ...(startedAt !== undefined ? { startedAt } : {}), ...(firstData[index] !== undefined ? { firstDataAt: firstData[index] } : {}) });
  }
  return outcomes;
}

/** The failure named by its flow; a retryable one stays retryable for the trial. */
function wrap(label: string, error: Error): Error {
  return new (isRetryable(error) ? RetryableError : NetbenchError)(`flow ${label}: ${error.message}`, { cause: error });
}

/** A flow sample with identity and labels; `undefined` (and a warning) for an invalid one. */
function toSample(state: RunState, trial: PlannedTrial, context: Labels, input: SampleInput, defaultTime = Date.now()): Sample | undefined {
  if (typeof input?.metric !== 'string' || input.metric === '' || typeof input.value !== 'number' || !Number.isFinite(input.value) || typeof input.unit !== 'string') {
    state.events.emit({ type: 'warning', plugin: trial.tool, message: `trial ${trial.id}: dropped an invalid sample ${JSON.stringify(input)}` });
    return undefined;
  }
  return makeSample(state, input, { ...context, ...input.labels }, defaultTime, trial.id);
}

function flowTrialContext(state: RunState, trial: PlannedTrial, prepared: PreparedFlow, signal: AbortSignal, options: AttemptOptions, flow: FlowContext): TrialContext {
  // Each flow's raw files get its own prefix so flows never overwrite each other's.
  const prefix = `${options.rawPrefix}-f${flow.index + 1}`;
  return {
    runId: state.runId,
    runDir: state.runDir,
    specDir: specDirOf(state.plan.spec),
    signal,
    log: pluginLogger(state, prepared.tool.name),
    timeoutMs: options.timeoutMs,
    flow,
    async saveRaw(name, content) {
      const relative = await state.files.saveRaw(prefix, name, content);
      options.rawFiles.push(relative);
      return join(state.runDir, relative);
    },
    progress(fraction, message) {
      // The first flow speaks for the trial; the others run in step with it.
      if (flow.index !== 0) return;
      const clamped = Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0));
      state.events.emit({ type: 'trial-progress', trial: trial.id, fraction: clamped, ...(message !== undefined ? { message: `${message} (${flow.count} flows)` } : {}) });
    },
  };
}
