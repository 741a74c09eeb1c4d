import type { TrialRun } from '@netbench/plugin-api';
import type { PlannedTrial } from '../plan/types.js';
import { runFlowsTrial } from './flows/run-flows-trial.js';
import { LiveIntervals } from './live-intervals.js';
import { recordSamples } from './record-samples.js';
import { call, type RunState, toolInfoKey } from './run-state.js';
import { trialLabels } from './sample-labels.js';
import { SearchSteps } from './search/search-steps.js';
import { acceptSample, runTrialLifecycle, samplesOf } from './trial-lifecycle.js';
import { trialTunnelLabels } from './tunnels-phase.js';

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

/** One trial with its retries (trial-lifecycle.ts). Resolves to whether it succeeded. */
async function runTrial(state: RunState, trial: PlannedTrial): Promise<boolean> {
  if (trial.flows) return runFlowsTrial(state, trial);
  const tool = state.tools.get(trial.tool)!;
  const client = state.hosts.get(trial.client)!;
  const server = state.hosts.get(trial.server)!;
  const clientInfo = state.toolInfo.get(toolInfoKey(trial.tool, trial.client))!;
  const serverInfo = state.toolInfo.get(toolInfoKey(trial.tool, trial.server))!;
  const serverHandle = state.servers.find((s) => s.tool.name === trial.tool && s.host === trial.server)?.handle;
  const live = new LiveIntervals(state, trial.id, {});
  return runTrialLifecycle(state, trial, [{ client, server, ip: trial.ip }], ([target]) => {
    const labels = {
      ...trialLabels({ runId: state.runId, specName: state.plan.spec.name, netbenchVersion: state.netbenchVersion, trial, client, server, clientInfo, serverInfo }),
      ...trialTunnelLabels(state, trial.ip),
    };
    live.setLabels(labels);
    return {
      async run({ attempt, timeoutMs, context }) {
        const run: TrialRun = {
          id: trial.id,
          test: trial.test,
          params: trial.params,
          client,
          server,
          target: target!,
          clientInfo,
          serverInfo,
          attempt,
          ...(serverHandle ? { serverHandle } : {}),
        };
        const output = await call(state, tool, 'run', (signal) => tool.run(run, context({ tool: trial.tool, signal, interval: (sample) => live.add(sample) })), {
          timeoutMs,
          signal: state.signal,
        });
        // Live values go out before the stored samples, so a display can swap the one for the other.
        live.flush(true);
        const finishedAt = Date.now();
        const samples = samplesOf(output, tool.name).flatMap((input) => acceptSample(state, trial, labels, input, finishedAt) ?? []);
        recordSamples(state, samples);
        return { stored: samples.length, explained: samples };
      },
      beforeFinish: () => live.flush(true),
    };
  });
}
