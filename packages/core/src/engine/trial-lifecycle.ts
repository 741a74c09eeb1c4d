import { join } from 'node:path';
import type { Host, Labels, Sample, SampleInput, TrialContext, TrialRecord } from '@netbench/plugin-api';
import { isRetryable, NetbenchError } from '@netbench/plugin-api';
import { isHostAddress } from '@netbench/plugin-api/tool-kit';
import type { PlannedTrial } from '../plan/types.js';
import type { AddressChoice } from '../spec/types.js';
import { makeSample } from './record-samples.js';
import { errorMessage, pluginLogger, type RunState } from './run-state.js';
import { specDirOf } from './spec-dir.js';
import { withToolCounters } from './tool-counters.js';
import { trialCounters } from './trial-counters.js';
import { targetAddress } from './tunnels-phase.js';

/** The wait before retry `attempt + 1`: 250 ms, doubling, at most 5 s. */
export function retryDelayMs(attempt: number): number {
  return Math.min(250 * 2 ** attempt, 5000);
}

/** One client/server pair of a trial: the trial's own, or one flow's. */
export interface TrialPair {
  /** The flow's label; absent for an ordinary trial. */
  readonly label?: string;
  readonly client: Host;
  readonly server: Host;
  readonly ip: AddressChoice;
}

/** What a trial's runner does once its pairs' targets are known and checked. */
export interface TrialAttempts {
  /**
   * One attempt: run the tool(s), store the samples (each through
   * `acceptSample`) and resolve to how many were stored and which ones the
   * counters explain. Throwing fails the attempt; a retryable error is
   * retried. Raw files saved through the attempt's context are kept either way.
   */
  run(attempt: Attempt): Promise<{ readonly stored: number; readonly explained: readonly Sample[] }>;
  /** Just before `trial-finished` (e.g. flush live values). */
  beforeFinish?(): void;
}

export interface Attempt {
  readonly attempt: number;
  readonly timeoutMs: number;
  /** Prefix of the attempt's raw files: a retry's never overwrite the first attempt's. */
  readonly rawPrefix: string;
  /** A tool's context for this attempt. */
  context(options: ContextOptions): TrialContext;
}

export interface ContextOptions {
  /** The tool the context is for (its logger). */
  readonly tool: string;
  readonly signal: AbortSignal;
  /** Raw files' prefix, when not the attempt's (a flow's own). */
  readonly rawPrefix?: string;
  /** Progress is not emitted (a flow that does not speak for the trial). */
  readonly silent?: boolean;
  /** Appended to every progress message. */
  readonly progressSuffix?: string;
  readonly interval?: TrialContext['interval'];
  readonly flow?: TrialContext['flow'];
}

/**
 * The one trial lifecycle (ordinary and synchronized trials): each pair's
 * target resolved and checked to be an address, then attempts with the
 * counters hook around each, retries with back-off after a retryable
 * failure, and the trial's record and `trial-finished` event. `prepare` gets
 * the pairs' targets, in order. Resolves to whether the trial succeeded;
 * never throws.
 */
export async function runTrialLifecycle(
  state: RunState,
  trial: PlannedTrial,
  pairs: readonly TrialPair[],
  prepare: (targets: readonly string[]) => TrialAttempts,
): Promise<boolean> {
  const { retries, trialTimeout } = state.plan.spec.options;
  const timeoutMs = Math.round((trial.estimatedSeconds + trialTimeout) * 1000);
  const startedAt = new Date();
  const began = performance.now();
  const rawFiles: string[] = [];
  let sampleCount = 0;
  let attempts: TrialAttempts | undefined;
  const finish = (status: TrialRecord['status'], attempt: number, error?: string, explain?: TrialRecord['explain']) => {
    attempts?.beforeFinish?.();
    state.trials.set(trial.id, {
      ...state.trials.get(trial.id)!,
      status,
      attempts: attempt,
      rawFiles,
      sampleCount,
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      ...(error !== undefined ? { error } : {}),
      ...(explain !== undefined ? { explain } : {}),
    });
    state.events.emit({
      type: 'trial-finished',
      trial: trial.id,
      status,
      durationMs: Math.round(performance.now() - began),
      samples: sampleCount,
      ...(error !== undefined ? { error } : {}),
    });
    return status === 'succeeded';
  };

  const targets: string[] = [];
  for (const pair of pairs) {
    const target = targetAddress(state, pair.ip, pair.client, pair.server);
    const problem = targetProblem(pair, target);
    if (problem) return finish('failed', 0, pair.label !== undefined ? `flow ${pair.label}: ${problem}` : problem);
    targets.push(target!);
  }
  attempts = prepare(targets);
  const ends = pairEnds(pairs);
  // Which address each role's sockets go to is only clear for one pair.
  const peers: Readonly<Record<string, string>> = pairs.length === 1 ? { client: targets[0]!, server: pairs[0]!.client.internalIp } : {};

  for (let attempt = 0; ; attempt += 1) {
    state.events.emit({
      type: 'trial-started',
      trial: trial.id,
      index: trial.index,
      total: state.plan.trials.length,
      tool: trial.tool,
      test: trial.test,
      attempt,
      estimatedSeconds: trial.estimatedSeconds,
    });
    const rawPrefix = attempt === 0 ? trial.id : `${trial.id}-retry${attempt}`;
    const counters = trialCounters(state, trial, ends, peers, pairs.length > 1 ? flowPeers(pairs, targets) : undefined);
    try {
      const context = (options: ContextOptions) => trialContext(state, trial, timeoutMs, options.rawPrefix ?? rawPrefix, rawFiles, options);
      const { stored, explained } = await attempts.run({ attempt, timeoutMs, rawPrefix, context });
      sampleCount += stored;
      const explain = await counters?.finish(trial.tool, trial.test, explained);
      return finish('succeeded', attempt + 1, undefined, withToolCounters(state, trial, pairs[0]!.client, pairs[0]!.server, explain, explained));
    } catch (error) {
      counters?.cancel();
      if (!state.signal.aborted && attempt < retries && isRetryable(error)) {
        state.events.emit({ type: 'warning', plugin: trial.tool, message: `trial ${trial.id} attempt ${attempt + 1} failed, retrying: ${errorMessage(error)}` });
        await pause(retryDelayMs(attempt), state.signal);
        continue;
      }
      return finish('failed', attempt + 1, errorMessage(error));
    }
  }
}

/** Why a pair cannot run: no target, or one that is not an address (a cloud plugin's value reaches tool argv, e.g. `-f/etc/passwd`). */
function targetProblem(pair: TrialPair, target: string | undefined): string | undefined {
  if (!target) return `host ${pair.server.id} has no ${pair.ip} address${pair.ip.startsWith('tunnel:') ? ' (the tunnel is not up)' : ''}`;
  if (!isHostAddress(target)) return `host ${pair.server.id}: ${pair.ip} address ${JSON.stringify(target)} is not an IP address or host name`;
  return undefined;
}

/** Each host's peers over the pairs of a synchronized trial, by host id: a client's is its target, a server's the client's address. */
function flowPeers(pairs: readonly TrialPair[], targets: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const add = (host: Host, peer: string) => out.set(host.id, [...new Set([...(out.get(host.id) ?? []), peer])]);
  pairs.forEach((pair, i) => {
    add(pair.client, targets[i]!);
    add(pair.server, pair.client.internalIp);
  });
  return out;
}

/** Every host of the pairs once, in the role it first plays (a mesh host is client of one flow and server of another). */
function pairEnds(pairs: readonly TrialPair[]): { role: 'client' | 'server'; host: Host }[] {
  const seen = new Map<string, { role: 'client' | 'server'; host: Host }>();
  for (const pair of pairs) {
    for (const [role, host] of [
      ['client', pair.client],
      ['server', pair.server],
    ] as const)
      if (!seen.has(host.id)) seen.set(host.id, { role, host });
  }
  return [...seen.values()];
}

/** Whether a tool's sample input can be stored (a metric name, a finite value, a unit). */
export function isValidSampleInput(input: SampleInput | undefined): input is SampleInput {
  return typeof input?.metric === 'string' && input.metric !== '' && typeof input.value === 'number' && Number.isFinite(input.value) && typeof input.unit === 'string';
}

/** A tool's sample with identity and labels (the tool's win over `context`); `undefined`, and a warning, for an invalid one. */
export function acceptSample(state: RunState, trial: PlannedTrial, context: Labels, input: SampleInput, defaultTime = Date.now()): Sample | undefined {
  if (!isValidSampleInput(input)) {
    state.events.emit({ type: 'warning', plugin: trial.tool, message: `trial ${trial.id}: dropped an invalid sample ${JSON.stringify(input)}` });
    return undefined;
  }
  return makeSample(state, input, { ...context, ...input.labels }, defaultTime, trial.id);
}

/** A run's `samples`, or the error naming the tool (and flow) that returned none. */
export function samplesOf(output: { samples?: readonly SampleInput[] } | undefined, tool: string, flowLabel?: string): readonly SampleInput[] {
  if (!Array.isArray(output?.samples)) throw new NetbenchError(`[plugin ${tool}] ${flowLabel !== undefined ? `flow ${flowLabel}: ` : ''}run returned no samples array`);
  return output.samples;
}

function trialContext(state: RunState, trial: PlannedTrial, timeoutMs: number, rawPrefix: string, rawFiles: string[], options: ContextOptions): TrialContext {
  return {
    runId: state.runId,
    runDir: state.runDir,
    specDir: specDirOf(state.plan.spec),
    signal: options.signal,
    log: pluginLogger(state, options.tool),
    timeoutMs,
    ...(options.flow ? { flow: options.flow } : {}),
    ...(options.interval ? { interval: options.interval } : {}),
    async saveRaw(name, content) {
      const relative = await state.files.saveRaw(rawPrefix, name, content);
      rawFiles.push(relative);
      return join(state.runDir, relative);
    },
    progress(fraction, message) {
      if (options.silent) return;
      const clamped = Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0));
      state.events.emit({ type: 'trial-progress', trial: trial.id, fraction: clamped, ...(message !== undefined ? { message: `${message}${options.progressSuffix ?? ''}` } : {}) });
    },
  };
}

/** Wait, but no longer than until `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
