import { join } from 'node:path';
import type { PlannedTrial } from '../plan/types.js';
import type { TrialContext, TrialRun } from '@netbench/plugin-api';
import type { Sample, SampleInput } from '@netbench/plugin-api';
import type { TrialRecord } from '@netbench/plugin-api';
import { NetbenchError, isRetryable } from '@netbench/plugin-api';
import { trialLabels } from './sample-labels.js';
import { makeSample, recordSamples } from './record-samples.js';
import { runFlowsTrial } from './flows/run-flows-trial.js';
import { SearchSteps } from './search/search-steps.js';
import { LiveIntervals } from './live-intervals.js';
import { isHostAddress } from '@netbench/plugin-api/tool-kit';
import { targetAddress, trialTunnelLabels } from './tunnels-phase.js';
import { call, errorMessage, pluginLogger, toolInfoKey, type RunState } from './run-state.js';
import { specDirOf } from './spec-dir.js';
import { trialCounters } from './trial-counters.js';

/**
 * Run the trials in plan order, at most `options.concurrency` at once. A
 * failed trial is recorded and the run goes on; after an interrupt no new
 * trial starts. Never throws.
 */
export async function execute(state: RunState): Promise<boolean> {
  const queue = state.plan.trials.filter((t) => !state.finished?.has(t.id));
  const width = Math.max(1, Math.min(state.plan.spec.options.concurrency, queue.length));
  let allOk = true;
  const searches = new SearchSteps();
  const worker = async () => {
    for (let trial = queue.shift(); trial && !state.signal.aborted; trial = queue.shift()) {
      const skip = searches.skipReason(trial);
      if (skip) {
        state.trials.set(trial.id, { ...state.trials.get(trial.id)!, error: skip });
        continue;
      }
      const ok = await runTrial(state, trial);
      if (!ok) allOk = false;
      searches.record(trial, ok, state.samples);
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return allOk && !state.signal.aborted;
}

/** One trial with its retries. Resolves to whether it succeeded. */
async function runTrial(state: RunState, trial: PlannedTrial): Promise<boolean> {
  if (trial.flows) return runFlowsTrial(state, trial);
  const { retries, trialTimeout } = state.plan.spec.options;
  const tool = state.tools.get(trial.tool)!;
  const client = state.hosts.get(trial.client)!;
  const server = state.hosts.get(trial.server)!;
  const clientInfo = state.toolInfo.get(toolInfoKey(trial.tool, trial.client))!;
  const serverInfo = state.toolInfo.get(toolInfoKey(trial.tool, trial.server))!;
  const serverHandle = state.servers.find((s) => s.tool.name === trial.tool && s.host === trial.server)?.handle;
  const timeoutMs = Math.round((trial.estimatedSeconds + trialTimeout) * 1000);
  const startedAt = new Date();
  const began = performance.now();
  const rawFiles: string[] = [];
  const live = new LiveIntervals(state, trial.id, {});
  const finish = (status: TrialRecord['status'], attempts: number, samples: number, error?: string, explain?: TrialRecord['explain']) => {
    live.flush(true);
    state.trials.set(trial.id, {
      ...state.trials.get(trial.id)!,
      status, attempts, rawFiles, sampleCount: samples,
      startedAt: startedAt.toISOString(), finishedAt: new Date().toISOString(),
      ...(error !== undefined ? { error } : {}),
      ...(explain !== undefined ? { explain } : {}),
    });
    state.events.emit({ type: 'trial-finished', trial: trial.id, status, durationMs: Math.round(performance.now() - began), samples, ...(error !== undefined ? { error } : {}) });
    return status === 'succeeded';
  };

  const target = targetAddress(state, trial.ip, client, server);
  if (!target) return finish('failed', 0, 0, `host ${server.id} has no ${trial.ip} address${trial.ip.startsWith('tunnel:') ? ' (the tunnel is not up)' : ''}`);
  // A cloud plugin's address reaches tool argv: refuse anything that is not an address (e.g. `-f/etc/passwd`).
  if (!isHostAddress(target)) return finish('failed', 0, 0, `host ${server.id}: ${trial.ip} address ${JSON.stringify(target)} is not an IP address or host name`);
  const labels = { ...trialLabels({ runId: state.runId, specName: state.plan.spec.name, netbenchVersion: state.netbenchVersion, trial, client, server, clientInfo, serverInfo }), ...trialTunnelLabels(state, trial.ip) };
  live.setLabels(labels);

  for (let attempt = 0; ; attempt += 1) {
    state.events.emit({ type: 'trial-started', trial: trial.id, index: trial.index, total: state.plan.trials.length, tool: trial.tool, test: trial.test, attempt, estimatedSeconds: trial.estimatedSeconds });
    const run: TrialRun = { id: trial.id, test: trial.test, params: trial.params, client, server, target, clientInfo, serverInfo, attempt, ...(serverHandle ? { serverHandle } : {}) };
    // Raw files of a retried attempt must not overwrite the first attempt's.
    const rawPrefix = attempt === 0 ? trial.id : `${trial.id}-retry${attempt}`;
    const counters = trialCounters(state, trial, [{ role: 'client', host: client }, { role: 'server', host: server }], { client: target, server: client.internalIp });
    try {
      const output = await call(state, tool, 'run', (signal) => tool.run(run, trialContext(state, trial, signal, timeoutMs, rawPrefix, rawFiles, live)), { timeoutMs, signal: state.signal });
      // Live values go out before the stored samples, so a display can swap the one for the other.
      live.flush(true);
      const samples = toSamples(state, trial, labels, output?.samples, Date.now());
      return finish('succeeded', attempt + 1, samples.length, undefined, await counters?.finish(trial.tool, trial.test, samples));
    } catch (error) {
      counters?.cancel();
      if (!state.signal.aborted && attempt < retries && isRetryable(error)) {
        state.events.emit({ type: 'warning', plugin: tool.name, message: `trial ${trial.id} attempt ${attempt + 1} failed, retrying: ${errorMessage(error)}` });
        await pause(Math.min(250 * 2 ** attempt, 5000), state.signal);
        continue;
      }
      return finish('failed', attempt + 1, 0, errorMessage(error));
    }
  }
}

function trialContext(state: RunState, trial: PlannedTrial, signal: AbortSignal, timeoutMs: number, rawPrefix: string, rawFiles: string[], live: LiveIntervals): TrialContext {
  return {
    runId: state.runId,
    runDir: state.runDir,
    specDir: specDirOf(state.plan.spec),
    signal,
    log: pluginLogger(state, trial.tool),
    timeoutMs,
    async saveRaw(name, content) {
      const relative = await state.files.saveRaw(rawPrefix, name, content);
      rawFiles.push(relative);
      return join(state.runDir, relative);
    },
    progress(fraction, message) {
      const clamped = Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0));
      state.events.emit({ type: 'trial-progress', trial: trial.id, fraction: clamped, ...(message !== undefined ? { message } : {}) });
    },
    interval: (sample) => live.add(sample),
  };
}

/** Give samples their identity and context, store them (file first) and announce them. */
function toSamples(state: RunState, trial: PlannedTrial, context: Sample['labels'], inputs: readonly SampleInput[] | undefined, finishedAt: number): Sample[] {
  if (!Array.isArray(inputs)) throw new NetbenchError(`[plugin ${trial.tool}] run returned no samples array`);
  const samples: Sample[] = [];
  for (const input of inputs) {
    if (typeof input?.metric !== 'string' || input.metric === '' || typeof input.value !== 'number' || !Number.isFinite(input.value) || typeof input.unit !== 'string') {
      state.events.emit({ type: 'warning', plugin: trial.tool, message: `trial ${trial.id}: dropped an invalid sample ${JSON.stringify(input)}` });
      continue;
    }
    samples.push(makeSample(state, input, { ...context, ...input.labels }, finishedAt, trial.id));
  }
  recordSamples(state, samples);
  return samples;
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
