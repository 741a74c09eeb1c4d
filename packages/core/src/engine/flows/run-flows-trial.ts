import { setTimeout as sleep } from 'node:timers/promises';
import type { FlowContext, Labels, Sample, SampleInput, ToolPlugin, TrialRun } from '@netbench/plugin-api';
import { isRetryable, NetbenchError, RetryableError } from '@netbench/plugin-api';
import type { PlannedFlow, PlannedTrial } from '../../plan/types.js';
import { LOAD_TOOL } from '../../spec/load-schema.js';
import { makeSample, recordSamples } from '../record-samples.js';
import { call, type RunState, toolInfoKey } from '../run-state.js';
import { trialLabels } from '../sample-labels.js';
import { type Attempt, acceptSample, runTrialLifecycle, samplesOf } from '../trial-lifecycle.js';
import { aggregateFlows, commonLabels, type FlowOutcome } from './aggregate-flows.js';
import { Barrier } from './barrier.js';
import { loadSummary } from './load-summary.js';

/** Seconds a flow may run on after the first flow finished before the trial stops it. */
const STRAGGLER_MIN_S = 5;
const STRAGGLER_FRACTION = 0.25;

/**
 * One synchronized trial (docs/flows.md): every flow's `run` at once, each
 * waiting at one barrier after its setup so the measuring processes start
 * together; interval samples emitted as they come and stored with the attempt's other samples if it succeeds; when one flow fails the
 * others are aborted (their raw output is kept by the tool) and the trial
 * fails; a flow still running well after the first one finished is stopped.
 * Then the aggregates. Targets, retries and the trial's record are the
 * shared lifecycle's (trial-lifecycle.ts). Resolves to whether the trial
 * succeeded; never throws.
 */
export async function runFlowsTrial(state: RunState, trial: PlannedTrial): Promise<boolean> {
  const flows = trial.flows ?? [];
  const pairs = flows.map((flow) => ({ label: flow.label, client: state.hosts.get(flow.client)!, server: state.hosts.get(flow.server)!, ip: flow.ip }));
  return runTrialLifecycle(state, trial, pairs, (targets) => {
    const ready = flows.map((flow, index) => prepareFlow(state, trial, flow, targets[index]!));
    return {
      async run(attempt) {
        const attemptStart = Date.now();
        let stored = 0;
        const outcomes = await runOnce(state, trial, ready, attempt, (n) => (stored += n));
        const aggregates = aggregateFlows(outcomes, flowsCombine(ready), Date.now());
        const context = commonLabels(ready.map((p) => p.labels));
        if (trial.tool === LOAD_TOOL) aggregates.push(...loadTrialSummary(state, trial, outcomes, attemptStart));
        const samples = aggregates.map((input) => makeSample(state, input, { ...context, ...input.labels }, Date.now(), trial.id));
        recordSamples(state, samples);
        return { stored: stored + samples.length, explained: samples };
      },
    };
  });
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
  return loadSummary(
    window,
    intervals,
    outcomes.flatMap((o) => o.samples),
  ).map((input) => ({ ...input, labels: { ...test, ...input.labels } }));
}

interface PreparedFlow {
  readonly flow: PlannedFlow;
  readonly tool: ToolPlugin<unknown>;
  readonly run: Omit<TrialRun, 'attempt'>;
  /** Context labels of the flow's samples: the trial's, its own pair and `flow`. */
  readonly labels: Labels;
}

/** The flow's hosts, target (checked by the lifecycle) and labels. */
function prepareFlow(state: RunState, trial: PlannedTrial, flow: PlannedFlow, target: string): PreparedFlow {
  const tool = state.tools.get(flow.tool)!;
  const client = state.hosts.get(flow.client)!;
  const server = state.hosts.get(flow.server)!;
  const clientInfo = state.toolInfo.get(toolInfoKey(flow.tool, flow.client))!;
  const serverInfo = state.toolInfo.get(toolInfoKey(flow.tool, flow.server))!;
  const serverHandle = state.servers.find((s) => s.tool.name === flow.tool && s.host === flow.server)?.handle;
  const asTrial: PlannedTrial = { ...trial, tool: flow.tool, test: flow.test, params: flow.params, client: flow.client, server: flow.server, ip: flow.ip };
  const labels = {
    ...trialLabels({ runId: state.runId, specName: state.plan.spec.name, netbenchVersion: state.netbenchVersion, trial: asTrial, client, server, clientInfo, serverInfo }),
    flow: flow.label,
    flow_count: trial.flows?.length ?? 1,
  };
  const run = { id: trial.id, test: flow.test, params: flow.params, client, server, target, clientInfo, serverInfo, ...(serverHandle ? { serverHandle } : {}) };
  return { flow, tool, run, labels };
}

/** Every flow once, at once. Resolves to each flow's outcome, or rejects with the first failure. */
async function runOnce(state: RunState, trial: PlannedTrial, flows: readonly PreparedFlow[], options: Attempt, onSamples: (count: number) => void): Promise<FlowOutcome[]> {
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
        const sample = acceptSample(state, trial, { ...prepared.labels, series: 'interval' }, input);
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
      const context = (signal: AbortSignal) =>
        options.context({
          tool: tool.name,
          signal: AbortSignal.any([signal, stop.signal]),
          // Each flow's raw files get its own prefix so flows never overwrite each other's.
          rawPrefix: `${options.rawPrefix}-f${index + 1}`,
          // The first flow speaks for the trial; the others run in step with it.
          silent: index !== 0,
          progressSuffix: ` (${flows.length} flows)`,
          flow: flowContext,
        });
      const output = await call(state, tool, 'run', (signal) => tool.run({ ...prepared.run, attempt: options.attempt }, context(signal)), {
        timeoutMs: options.timeoutMs,
        signal: state.signal,
      });
      if (!reached) throw new NetbenchError(`[plugin ${tool.name}] flow ${flow.label}: run finished without waiting at ctx.flow.release()`);
      const returned = samplesOf(output, tool.name, flow.label);
      // The others should finish about now: all flows run the same duration.
      const waitMs = graceMs + (lastEnd - ends[index]!) * 1000;
      firstDone ??= setTimeout(() => fail(new NetbenchError(`flow(s) still running ${Math.round(waitMs / 1000)} s after flow ${flow.label} finished; stopped`)), waitMs);
      return returned;
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
  onSamples(intervals.length);
  const outcomes: FlowOutcome[] = [];
  for (const [index, result] of settled.entries()) {
    const prepared = flows[index]!;
    if (result.status === 'rejected') throw result.reason;
    const samples = result.value.flatMap((input) => acceptSample(state, trial, prepared.labels, input, Date.now()) ?? []);
    const startedAt = starts[index];
    if (startedAt !== undefined && starts.every((s) => s !== undefined)) {
      const offset = startedAt - Math.min(...(starts as number[]));
      samples.push(makeSample(state, { metric: 'flow_start_offset', value: Math.round(offset * 1000) / 1000, unit: 'ms' }, prepared.labels, Date.now(), trial.id));
    }
    recordSamples(state, samples);
    onSamples(samples.length);
    outcomes.push({
      label: prepared.flow.label,
      samples: samples.filter((s) => s.metric !== 'flow_start_offset'),
      ...(startedAt !== undefined ? { startedAt } : {}),
      ...(firstData[index] !== undefined ? { firstDataAt: firstData[index] } : {}),
    });
  }
  return outcomes;
}

/** The failure named by its flow; a retryable one stays retryable for the trial. */
function wrap(label: string, error: Error): Error {
  return new (isRetryable(error) ? RetryableError : NetbenchError)(`flow ${label}: ${error.message}`, { cause: error });
}
