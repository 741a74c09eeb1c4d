import type { LedgerResource, Logger, NetbenchEvent } from '@netbench/plugin-api';
import type { PluginResolver } from '../registry/types.js';

export interface CleanupOutcome {
  /** Resources deleted (with `dryRun`: that would be deleted). */
  readonly deleted: LedgerResource[];
  readonly failed: { readonly resource: LedgerResource; readonly error: string }[];
  /**
   * `cleanup --all` without `--cloud`: clouds whose search could not run
   * (typically no credentials or project on this machine), with the reason.
   * Not failures: naming the cloud with `--cloud` makes them one.
   */
  readonly skipped?: { readonly cloud: string; readonly reason: string }[];
  /**
   * `cleanup --all`: resources of runs still in progress on this machine
   * (their `run.lock` names a live process, same pid and start time),
   * whatever runs folder they use: left alone, with `in use by live run X (pid N)`.
   */
  readonly spared?: { readonly resource: LedgerResource; readonly reason: string }[];
}

export interface CleanupOptions {
  readonly registry: PluginResolver;
  /** Parent of run folders; default `defaultRunsDir()`. */
  readonly runsDir?: string;
  /** Plugin calls and warnings of the cleanup, as events. */
  readonly onEvent?: (event: NetbenchEvent) => void;
  /** Receives plugins' messages (warnings are also `warning` events). */
  readonly log?: Logger;
  /** Milliseconds each delete may take (default 600 000). */
  readonly timeoutMs?: number;
  /** Report, delete nothing. */
  readonly dryRun?: boolean;
}

export interface CleanupRunOptions extends CleanupOptions {
  /** Clean even when the run's process still seems alive. */
  readonly force?: boolean;
}

export interface CleanupAllOptions extends CleanupOptions {
  /** Only runs / resources older than this. */
  readonly olderThanMs?: number;
  /** Only this cloud plugin. */
  readonly cloud?: string;
  /** Where runs keep their RAM directories, with the machine copy of their lock and their tunnel ends (default `/dev/shm`); tests point it elsewhere. */
  readonly machineLocksDir?: string;
}
