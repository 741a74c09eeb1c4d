import type { CloudPlugin, EventInput, LedgerEntry, LedgerFile, LedgerResource, Logger } from '@netbench/plugin-api';
import { pendingResources } from '@netbench/plugin-api';
import type { PluginResolver } from '../registry/types.js';
import { TUNNELS_LEDGER } from '../tunnels/running-tunnel.js';
import { tunnelsCleaner } from '../tunnels/tunnels-down.js';
import { callPlugin } from './call-plugin.js';
import { errorMessage, type RunState, reportError } from './run-state.js';
import { tunnelsDown } from './tunnels-phase.js';

/**
 * Undo the run: stop servers, close hosts, then delete every resource the
 * ledger says may exist, newest first. Every step is attempted even when
 * others fail; failures are collected. Not tied to the run's interrupt: it is
 * what an interrupt waits for. Resolves to whether everything was deleted.
 */
export async function teardown(state: RunState): Promise<boolean> {
  const timeoutMs = state.plan.spec.options.teardownTimeout * 1000;
  const emit = (event: EventInput) => state.events.emit(event);
  const stopErrors = await releaseHosts(state);
  let ok = stopErrors === 0;

  const outcome = await deleteResources(state.ledger, {
    registry: state.registry,
    runId: state.runId,
    runDir: state.runDir,
    timeoutMs,
    graceMs: state.graceMs,
    emit,
    log: (plugin) => ({ debug() {}, info() {}, warn: (message) => emit({ type: 'warning', message, plugin }) }),
    cached: state.clouds,
  });
  for (const failure of outcome.failed) {
    reportError(state, `could not delete ${describe(failure.resource)}: ${failure.error}`, 'teardown', failure.plugin);
    ok = false;
  }
  state.teardownErrors = stopErrors + outcome.failed.length;
  return ok;
}

/**
 * Stop the servers this process started and close its connections to hosts,
 * leaving the hosts themselves (and the ledger) alone: the first half of
 * teardown, and all of it for an invocation that keeps the fleet for a later
 * stage. Resolves to the number of servers that would not stop (each reported).
 */
export async function releaseHosts(state: RunState): Promise<number> {
  const timeoutMs = state.plan.spec.options.teardownTimeout * 1000;
  const emit = (event: EventInput) => state.events.emit(event);
  const stops = await Promise.allSettled(
    state.servers.map(({ tool, handle }) => callPlugin(tool, 'server.stop', () => handle.stop(), { timeoutMs, emit, graceMs: state.graceMs })),
  );
  let stopErrors = 0;
  for (const result of stops) {
    if (result.status !== 'rejected') continue;
    // A server that would not stop may still hold a port or a process: a teardown failure.
    reportError(state, result.reason, 'teardown');
    stopErrors += 1;
  }
  // Tunnels go while the hosts' transports are open; an end left over stays pending in the ledger for deleteResources.
  for (const error of await tunnelsDown(state)) {
    reportError(state, error, 'teardown');
    stopErrors += 1;
  }
  // A transport that cannot close cleanly leaks nothing the ledger does not know; a warning is enough.
  const closes = await Promise.allSettled(
    [...state.hosts.values()]
      .filter((host) => host.close)
      .map((host) => callPlugin({ name: host.cloud }, 'host.close', async () => host.close!(), { timeoutMs, emit, graceMs: state.graceMs })),
  );
  for (const result of closes) {
    if (result.status === 'rejected') emit({ type: 'warning', message: errorMessage(result.reason) });
  }
  return stopErrors;
}

export interface DeleteOptions {
  readonly registry: PluginResolver;
  readonly runId: string;
  readonly runDir: string;
  readonly timeoutMs: number;
  readonly graceMs?: number;
  readonly emit?: (event: EventInput) => void;
  readonly log: (plugin: string) => Logger;
  /** Cloud plugins already loaded, by name. */
  readonly cached?: ReadonlyMap<string, CloudPlugin<unknown>>;
  /** Report what would be deleted; delete nothing, write nothing. */
  readonly dryRun?: boolean;
  /** Only entries this accepts (e.g. one cloud's). */
  readonly only?: (entry: LedgerEntry) => boolean;
}

export interface DeleteOutcome {
  readonly deleted: LedgerEntry[];
  readonly failed: { readonly plugin: string; readonly resource: LedgerResource; readonly error: string }[];
}

/**
 * Walk a ledger backwards and delete what it says may still exist, appending
 * `deleted` / `delete-failed` lines. Works from the ledger alone, so it serves
 * both teardown and `netbench cleanup` in a fresh process. A plugin with
 * `teardownMany` gets each run of its consecutive entries in one call.
 */
export async function deleteResources(ledger: LedgerFile, options: DeleteOptions): Promise<DeleteOutcome> {
  const outcome: DeleteOutcome = { deleted: [], failed: [] };
  const entries = pendingResources(ledger.entries).filter((entry) => !options.only || options.only(entry));
  if (options.dryRun) return { deleted: entries, failed: [] };
  const record = async (entry: LedgerEntry, error: unknown) => {
    if (error === undefined) {
      outcome.deleted.push(entry);
      // Deleted is deleted, recorded or not (a full disk): a later cleanup finds it gone, which counts as deleted.
      await ledger.append(entry.plugin, 'deleted', entry.resource).catch(() => {});
      return;
    }
    const message = errorMessage(error);
    await ledger.append(entry.plugin, 'delete-failed', entry.resource, message).catch(() => {});
    outcome.failed.push({ plugin: entry.plugin, resource: entry.resource, error: message });
  };
  for (const group of consecutiveByPlugin(entries)) {
    let cloud: Deleter;
    try {
      cloud = await cloudFor(group[0]!.plugin, options);
    } catch (error) {
      for (const entry of group) await record(entry, error);
      continue;
    }
    const many = group.length > 1 ? await teardownMany(cloud, group, options) : undefined;
    for (const [i, entry] of group.entries()) {
      // One by one: a plugin without teardownMany, or one whose batch call failed as a whole.
      const error = many ? many[i] : await teardownOne(cloud, entry, options);
      await record(entry, error);
    }
  }
  return outcome;
}

/** Runs of consecutive entries of one plugin, in the order given. */
function consecutiveByPlugin(entries: readonly LedgerEntry[]): LedgerEntry[][] {
  const groups: LedgerEntry[][] = [];
  for (const entry of entries) {
    const last = groups.at(-1);
    if (last && last[0]!.plugin === entry.plugin) last.push(entry);
    else groups.push([entry]);
  }
  return groups;
}

/** What deleting needs of a cloud plugin (the core's tunnel cleaner is one too). */
type Deleter = Pick<CloudPlugin<unknown>, 'name' | 'teardown' | 'teardownMany'>;

async function cloudFor(name: string, options: DeleteOptions): Promise<Deleter> {
  // Tunnel ends are the engine's own resources, undone by the core (docs/tunnels.md).
  const cloud = name === TUNNELS_LEDGER ? tunnelsCleaner : (options.cached?.get(name) ?? (await options.registry.get('cloud', name)));
  if (!cloud) throw new Error(`no cloud plugin named ${name} is installed`);
  return cloud;
}

/** `undefined` when deleted, else the error. */
async function teardownOne(cloud: Deleter, entry: LedgerEntry, options: DeleteOptions): Promise<unknown> {
  try {
    await callPlugin(
      cloud,
      'teardown',
      (callSignal) => cloud.teardown(entry.resource, { runId: options.runId, runDir: options.runDir, signal: callSignal, log: options.log(cloud.name) }),
      {
        timeoutMs: options.timeoutMs,
        emit: options.emit,
        graceMs: options.graceMs,
      },
    );
    return undefined;
  } catch (error) {
    return error;
  }
}

/**
 * One outcome per entry from the plugin's `teardownMany`, or `undefined` when
 * it has none or the call failed as a whole (thrown, timed out, or an answer
 * of the wrong shape): then each entry is torn down on its own.
 */
async function teardownMany(cloud: Deleter, group: readonly LedgerEntry[], options: DeleteOptions): Promise<readonly unknown[] | undefined> {
  if (typeof cloud.teardownMany !== 'function') return undefined;
  const resources = group.map((entry) => entry.resource);
  try {
    const outcomes = await callPlugin(
      cloud,
      'teardownMany',
      (callSignal) => cloud.teardownMany!(resources, { runId: options.runId, runDir: options.runDir, signal: callSignal, log: options.log(cloud.name) }),
      {
        timeoutMs: options.timeoutMs,
        emit: options.emit,
        graceMs: options.graceMs,
      },
    );
    if (!Array.isArray(outcomes) || outcomes.length !== group.length) {
      options.emit?.({
        type: 'warning',
        plugin: cloud.name,
        message: `${cloud.name}: teardownMany answered ${Array.isArray(outcomes) ? `${outcomes.length} outcomes` : typeof outcomes} for ${group.length} resources; deleting them one by one`,
      });
      return undefined;
    }
    return outcomes;
  } catch (error) {
    options.emit?.({ type: 'warning', plugin: cloud.name, message: `${errorMessage(error)}; deleting its ${group.length} resources one by one` });
    return undefined;
  }
}

export function describe(resource: LedgerResource): string {
  return `${resource.type} ${resource.id}${resource.host ? ` (host ${resource.host})` : ''}`;
}
