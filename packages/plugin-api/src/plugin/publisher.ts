import type { RunRecord } from '../run/run-record.js';
import type { Sample } from '../samples/types.js';
import type { BlockSchema, PluginContext, PluginMeta } from './common.js';

export interface PublishResult {
  /** Where the results went (a file path, a table, a URL). */
  readonly location?: string;
  readonly count: number;
}

/**
 * A publisher sends a finished (or interrupted) run's samples somewhere.
 * Publishers run after teardown, each isolated: one that throws is reported
 * and never prevents another from publishing. The run folder always holds
 * `results.json` regardless of publishers.
 */
export interface PublisherPlugin<S = Record<string, unknown>> extends PluginMeta {
  readonly kind: 'publisher';
  /** Strict zod object for the `publish[]` entry (besides `type`). */
  readonly schema: BlockSchema<S>;
  publish(run: RunRecord, samples: readonly Sample[], settings: S, ctx: PluginContext): Promise<PublishResult>;
}
