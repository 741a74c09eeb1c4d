import type { Host, Sample, ToolCounterRecord, TrialRecord } from '@netbench/plugin-api';
import { toolCounterProblem } from '@netbench/plugin-api';
import type { PlannedTrial } from '../plan/types.js';
import { errorMessage, type RunState } from './run-state.js';

type Explain = NonNullable<TrialRecord['explain']>;

/**
 * A succeeded trial's explain record with its tool's own counters added
 * (`ToolPlugin.counters`): only for an ordinary trial (not synchronized
 * flows) whose counters were read. The hook is pure and synchronous; a
 * throw becomes a note, an invalid counter is dropped with a warning —
 * neither fails the trial.
 */
export function withToolCounters(state: RunState, trial: PlannedTrial, client: Host, server: Host, explain: Explain | undefined, samples: readonly Sample[]): Explain | undefined {
  const tool = state.tools.get(trial.tool);
  if (!explain || trial.flows || typeof tool?.counters !== 'function') return explain;
  let returned: readonly unknown[];
  try {
    const answer: unknown = tool.counters({ test: trial.test, params: trial.params, client: { name: client.name }, server: { name: server.name }, samples });
    if (!Array.isArray(answer)) throw new Error(`returned ${JSON.stringify(answer)?.slice(0, 80)}, not an array`);
    returned = answer;
  } catch (error) {
    return { ...explain, notes: [...(explain.notes ?? []), `[plugin ${trial.tool}] counters: ${errorMessage(error)}`] };
  }
  const hostOf = { client: client.name, server: server.name };
  const counters: ToolCounterRecord[] = [];
  for (const value of returned) {
    const problem = toolCounterProblem(value);
    if (problem) {
      state.events.emit({ type: 'warning', plugin: trial.tool, message: `trial ${trial.id}: dropped a counter: ${problem}` });
      continue;
    }
    const c = value as { name: string; value: number; unit: string; role?: 'client' | 'server' };
    counters.push({ tool: trial.tool, name: c.name, value: c.value, unit: c.unit, ...(c.role ? { role: c.role, host: hostOf[c.role] } : {}) });
  }
  return counters.length > 0 ? { ...explain, toolCounters: counters } : explain;
}
