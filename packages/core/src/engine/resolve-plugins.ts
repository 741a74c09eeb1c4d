import { PluginError } from '@netbench/plugin-api';
import { trialInvocations } from '../plan/plan-flows.js';
import { EXIT_CODES } from './exit-codes.js';
import { type RunState, reportError } from './run-state.js';

/**
 * Load every cloud and tool plugin the plan needs before anything is made.
 * Resolves to an exit code: ok, `specInvalid` when the spec names a plugin
 * that is not installed, `error` when one fails to load.
 */
export async function resolvePlugins(state: RunState): Promise<number> {
  let code: number = EXIT_CODES.ok;
  const wanted = [
    ...new Set(state.plan.fleet.map((h) => `cloud\u0000${h.cloud}`)),
    // A synchronized trial's tools are its flows' (a load test mixes netperf and ping).
    ...new Set(state.plan.trials.flatMap(trialInvocations).map((t) => `tool\u0000${t.tool}`)),
  ].map((key) => key.split('\u0000') as ['cloud' | 'tool', string]);
  for (const [kind, name] of wanted) {
    try {
      const plugin = await state.registry.get(kind, name);
      if (!plugin) {
        reportError(state, `the spec uses ${kind} ${name}, but no ${kind} plugin named ${name} is installed`);
        if (code === EXIT_CODES.ok) code = EXIT_CODES.specInvalid;
      } else if (plugin.kind === 'cloud') {
        state.clouds.set(name, plugin);
      } else if (plugin.kind === 'tool') {
        state.tools.set(name, plugin);
      }
    } catch (error) {
      reportError(state, error instanceof PluginError ? error : new PluginError(name, 'load', error));
      code = EXIT_CODES.error;
    }
  }
  return code;
}
