import type { HostRecord, MetricDeclaration, RunRecord, RunStatus, Sample } from '@netbench/plugin-api';
import { studyLabels } from '../plan/shard-plan.js';
import { makeSample } from './record-samples.js';
import type { RunState } from './run-state.js';

/** Labels every sample and the record of a run carry. */
export function runLabels(state: RunState): Sample['labels'] {
  const { repetitions = 1, order = 'plan', seed } = state.plan.spec.options;
  return {
    run_id: state.runId,
    spec: state.plan.spec.name,
    owner: state.owner,
    netbench_version: state.netbenchVersion,
    // How trials were repeated and ordered, so a randomised run can be replayed in the same order.
    ...(repetitions > 1 ? { repetitions } : {}),
    ...(order === 'random' ? { order, order_seed: seed ?? 0 } : {}),
    ...studyLabels(state.plan.spec.options),
  };
}

/** The run's record as it stands. */
export function buildRecord(state: RunState, status: RunStatus): RunRecord {
  if (state.hosts.size === 0 && state.restoredHosts) return recordWith(state, status, [...state.restoredHosts]);
  const hosts: HostRecord[] = [...state.hosts].map(([id, host]) => ({
    id,
    name: host.name,
    cloud: host.cloud,
    ...(host.zone ? { zone: host.zone } : {}),
    ...(host.region ? { region: host.region } : {}),
    ...(host.machineType ? { machineType: host.machineType } : {}),
    internalIp: host.internalIp,
    ...(host.externalIp ? { externalIp: host.externalIp } : {}),
    ...(host.os ? { os: host.os } : {}),
    labels: { ...host.labels },
    ...(state.fingerprints?.has(id) ? { fingerprint: { ...state.fingerprints.get(id)! } } : {}),
  }));
  return recordWith(state, status, hosts);
}

function recordWith(state: RunState, status: RunStatus, hosts: HostRecord[]): RunRecord {
  const { spec } = state.plan;
  return {
    runId: state.runId,
    name: spec.name,
    ...(spec.description !== undefined ? { description: spec.description } : {}),
    status,
    startedAt: state.startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    runDir: state.runDir,
    owner: state.owner,
    netbenchVersion: state.netbenchVersion,
    ...(spec.source ? { specFile: spec.source.file, specText: spec.source.text } : {}),
    hosts,
    trials: state.plan.trials.map((t) => state.trials.get(t.id)!),
    phases: [...state.phases],
    errors: [...state.errors],
    labels: runLabels(state),
    ...declaredMetrics(state),
  };
}

/** One `phase_duration` sample (seconds) per phase that ran, so run overhead is measured like anything else. */
export function phaseSamples(state: RunState): Sample[] {
  return state.phases.map((phase) =>
    makeSample(
      state,
      { metric: 'phase_duration', value: phase.durationMs / 1000, unit: 's' },
      { ...runLabels(state), phase: phase.phase },
      Date.parse(phase.startedAt) + phase.durationMs,
    ),
  );
}

/** The headline metrics the run's tools declared, so results read them without loading plugins. */
function declaredMetrics(state: RunState): { metrics?: Record<string, MetricDeclaration>; toolMetrics?: Record<string, Readonly<Record<string, MetricDeclaration>>> } {
  const metrics: Record<string, MetricDeclaration> = {};
  const toolMetrics: Record<string, Readonly<Record<string, MetricDeclaration>>> = {};
  for (const [name, tool] of state.tools) {
    if (!tool.metrics) continue;
    Object.assign(metrics, tool.metrics);
    toolMetrics[name] = tool.metrics;
  }
  return Object.keys(metrics).length > 0 ? { metrics, toolMetrics } : {};
}
