import type {
  CloudPlugin,
  Host,
  HostRecord,
  LedgerFile,
  Logger,
  PhaseRecord,
  PluginContext,
  PublisherPlugin,
  Sample,
  ServerHandle,
  ToolInfo,
  ToolPlugin,
  TrialRecord,
} from '@netbench/plugin-api';
import { PluginError } from '@netbench/plugin-api';
import type { EventLog } from '../events/event-log.js';
import type { HostFingerprint } from '../explain/host-fingerprint.js';
import type { Plan } from '../plan/types.js';
import type { PluginResolver } from '../registry/types.js';
import type { RunningTunnel } from '../tunnels/running-tunnel.js';
import { callPlugin } from './call-plugin.js';
import type { RunFiles } from './run-files.js';
import type { RunStore } from './run-store.js';

/** A server started in prepare, stopped in teardown. */
export interface RunningServer {
  readonly tool: ToolPlugin<unknown>;
  readonly host: string;
  readonly handle: ServerHandle;
}

/** Everything one run accumulates; the phases read and extend it. */
export interface RunState {
  readonly plan: Plan;
  readonly runId: string;
  readonly runDir: string;
  readonly startedAt: Date;
  readonly owner: string;
  readonly netbenchVersion: string;
  readonly registry: PluginResolver;
  readonly events: EventLog;
  readonly ledger: LedgerFile;
  readonly files: RunFiles;
  /** The caller's interrupt. */
  readonly signal: AbortSignal;
  readonly clouds: Map<string, CloudPlugin<unknown>>;
  readonly tools: Map<string, ToolPlugin<unknown>>;
  /** Provisioned hosts by fleet id. */
  readonly hosts: Map<string, Host>;
  readonly servers: RunningServer[];
  /** Tunnels set up in prepare (also partly set up ones), undone in teardown. */
  readonly tunnels: RunningTunnel[];
  /** `check` results by `toolInfoKey(tool, hostId)`. */
  readonly toolInfo: Map<string, ToolInfo>;
  /** What decides each host's results besides the network, read once in prepare (docs/explain.md); by fleet id. */
  readonly fingerprints?: Map<string, HostFingerprint>;
  readonly trials: Map<string, TrialRecord>;
  readonly samples: Sample[];
  readonly phases: PhaseRecord[];
  /** Run-level errors (provision, prepare, teardown, publish). */
  readonly errors: string[];
  /** Milliseconds a call that ignores its aborted signal is waited for. */
  readonly graceMs: number;
  teardownErrors: number;
  publishErrors: number;
  nextSample: number;
  /** Trials an earlier invocation of this run finished (`--resume`): execute skips them. */
  readonly finished?: ReadonlySet<string>;
  /** The fleet as an earlier invocation recorded it, for a record made without hosts (a teardown-only invocation). */
  readonly restoredHosts?: readonly HostRecord[];
  /** The results store the run is ingested into (absent: not stored); `stored` once it is. */
  store?: { readonly sink: RunStore; stored: boolean };
}

export const toolInfoKey = (tool: string, hostId: string) => `${tool}\u0000${hostId}`;

export const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Logger handed to a plugin: warnings become `warning` events naming it. */
export function pluginLogger(state: RunState, plugin: string): Logger {
  return {
    debug() {},
    info() {},
    warn(message: string) {
      state.events.emit({ type: 'warning', message, plugin });
    },
  };
}

export function pluginContext(state: RunState, plugin: string, signal: AbortSignal): PluginContext {
  return { runId: state.runId, runDir: state.runDir, signal, log: pluginLogger(state, plugin) };
}

/** `callPlugin` with the run's event stream. */
export function call<T>(
  state: RunState,
  plugin: { readonly name: string },
  hook: string,
  fn: (signal: AbortSignal) => Promise<T>,
  options: { timeoutMs?: number; signal?: AbortSignal },
): Promise<T> {
  return callPlugin(plugin, hook, fn, { ...options, graceMs: state.graceMs, emit: (event) => state.events.emit(event) });
}

/** Record a run-level error and report it as an `error` event. */
export function reportError(state: RunState, error: unknown, phase?: PhaseRecord['phase'], plugin?: string): void {
  const message = errorMessage(error);
  plugin ??= error instanceof PluginError ? error.plugin : undefined;
  state.errors.push(message);
  state.events.emit({ type: 'error', message, ...(phase ? { phase } : {}), ...(plugin ? { plugin } : {}) });
}

export type { PublisherPlugin };
