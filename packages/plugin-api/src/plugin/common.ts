import type { NetbenchEvent } from '../events/types.js';
import type { Ledger } from '../ledger/types.js';
import type { z } from './zod.js';

/** Version of the plugin contract. Bumped on breaking changes only. */
export const PLUGIN_API_VERSION = 1;

/**
 * Brand carried by every object made with `definePlugin`. A symbol from the
 * global registry, so a plugin bundling its own copy of `@netbench/core` is
 * still recognised (no `instanceof`).
 */
export const PLUGIN_BRAND: unique symbol = Symbol.for('netbench.plugin') as never;

export type PluginKind = 'cloud' | 'tool' | 'publisher';

export interface PluginMeta {
  readonly kind: PluginKind;
  /** Short name used in specs (`cloud: local`, `tool: ping`, `type: json`). */
  readonly name: string;
  /** Package version; recorded in results. */
  readonly version?: string;
  /** Contract version the plugin was written against. Defaults to the current one. */
  readonly apiVersion?: number;
  readonly description?: string;
}

export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  /** A warning is shown to the user and recorded as a `warning` event. */
  warn(message: string): void;
}

/** Given to every plugin call. */
export interface PluginContext {
  readonly runId: string;
  /** The run folder (`~/.netbench/runs/<runId>/` unless overridden). */
  readonly runDir: string;
  /** Aborted on SIGINT/SIGTERM, on timeout of the call, or when the run fails. */
  readonly signal: AbortSignal;
  readonly log: Logger;
}

/** A zod schema for a plugin's block of the spec. Must be a strict object. */
export type BlockSchema<T> = z.ZodType<T>;

export type { Ledger, NetbenchEvent };
