import type { Host, ToolHostContext, ToolInfo, ToolPlugin, TrialParams } from '@netbench/plugin-api';
import { ToolMissingError } from '@netbench/plugin-api';
import { fingerprintArgv, parseFingerprint } from '../explain/host-fingerprint.js';
import { type MachineSlots, machineSlots } from './machine-slots.js';
import { settleAll } from './run-phase.js';
import { call, pluginContext, type RunState, toolInfoKey } from './run-state.js';
import { countersOn } from './trial-counters.js';
import { tunnelsUp } from './tunnels-phase.js';

/**
 * Set the spec's tunnels up (docs/tunnels.md), then make every tool ready: `check` each host it runs on (tools and hosts in
 * parallel: over SSH each check is a round trip), `install` once and `check`
 * again when it is missing and installing is allowed — installs on one host
 * one at a time, since package managers hold a lock — then start its server
 * side once per server host, as soon as that host's check is done. Hosts that
 * are one machine (the local lab's namespaces) take turns, a few at a time.
 */
export async function prepare(state: RunState): Promise<void> {
  await tunnelsUp(state);
  const slots = machineSlots();
  const timeoutMs = state.plan.spec.options.provisionTimeout * 1000;
  const installs = new Map<string, Promise<unknown>>();
  const checks = settleAll(
    [...state.tools].map(async ([name, tool]) => {
      if (state.signal.aborted) return;
      // A synchronized trial's invocations are its flows, each on its own pair.
      type Leg = { readonly tool: string; readonly client: string; readonly server: string; readonly params: TrialParams };
      const trials = state.plan.trials.flatMap((t): Leg[] => (t.flows ? t.flows.map((f) => ({ ...f, params: { ...t.params, ...f.params } })) : [t])).filter((t) => t.tool === name);
      const hostIds = unique(trials.flatMap((t) => [t.client, t.server]));
      const serverIds = new Set(trials.map((t) => t.server));
      // Each host's server starts as soon as that host's check is done, not after every host's:
      // a server started while another host's check fails is stopped in teardown like any other.
      await settleAll(
        hostIds.map(async (hostId) => {
          const host = state.hosts.get(hostId)!;
          // What check and serve are told: which ends this host runs, and the trials it takes part in.
          const roles = (['client', 'server'] as const).filter((role) => trials.some((t) => t[role] === hostId));
          const hostTrials = trials.filter((t) => t.client === hostId || t.server === hostId).map((t) => t.params);
          const served = trials.filter((t) => t.server === hostId).map((t) => t.params);
          const info = await checkTool(state, tool, host, timeoutMs, installs, { roles, trials: hostTrials }, slots);
          state.toolInfo.set(toolInfoKey(name, hostId), info);
          state.events.emit({ type: 'tool-checked', host: hostId, tool: name, version: info.version });
          if (!tool.serve || !serverIds.has(hostId) || state.signal.aborted) return;
          const handle = await slots(host, () =>
            call(state, tool, 'serve', (signal) => tool.serve!(host, info, { ...pluginContext(state, name, signal), roles, trials: served }), { timeoutMs, signal: state.signal }),
          );
          state.servers.push({ tool, host: hostId, handle });
        }),
      );
    }),
  );
  // Beside the tools' checks, queued after them: one read per host, never a reason to stop (a host without sh simply has none).
  const fingerprints = readFingerprints(state, slots);
  await checks;
  await fingerprints;
}

/** Each host's fingerprint (docs/explain.md), when counters are on; a host that cannot be read has none. */
async function readFingerprints(state: RunState, slots: MachineSlots): Promise<void> {
  if (!countersOn(state) || !state.fingerprints) return;
  await Promise.all(
    [...state.hosts].map(async ([id, host]) => {
      try {
        const result = await slots(host, () => host.exec(fingerprintArgv(), { timeoutMs: 10_000, signal: state.signal }));
        if (result.code === 0) state.fingerprints!.set(id, parseFingerprint(result.stdout));
      } catch {
        // No fingerprint for this host: compare then has nothing to say about it.
      }
    }),
  );
}

async function checkTool(
  state: RunState,
  tool: ToolPlugin<unknown>,
  host: Host,
  timeoutMs: number,
  installs: Map<string, Promise<unknown>>,
  part: Required<Pick<ToolHostContext, 'roles' | 'trials'>>,
  slots: MachineSlots,
): Promise<ToolInfo> {
  // The call's timeout starts with the check, not while it waits for its turn.
  const check = () =>
    slots(host, () => call(state, tool, 'check', (signal) => tool.check(host, { ...pluginContext(state, tool.name, signal), ...part }), { timeoutMs, signal: state.signal }));
  try {
    return await check();
  } catch (error) {
    const missing = error instanceof ToolMissingError || (error instanceof Error && error.cause instanceof ToolMissingError);
    if (!missing || !tool.install || !state.plan.spec.options.install) throw error;
    state.events.emit({ type: 'warning', plugin: tool.name, message: `${tool.name} is missing on ${host.id}; installing it` });
    // A local-lab namespace installs from the root namespace (Host.installHost); hosts sharing one installer take turns.
    const target = host.installHost ?? host;
    const install = () => call(state, tool, 'install', (signal) => tool.install!(target, pluginContext(state, tool.name, signal)), { timeoutMs, signal: state.signal });
    const turn = (installs.get(target.id) ?? Promise.resolve()).catch(() => {}).then(install);
    installs.set(target.id, turn);
    await turn;
    return check();
  }
}

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}
