import type { CloudPlugin } from './cloud.js';
import type { BlockSchema } from './common.js';
import { PLUGIN_API_VERSION, PLUGIN_BRAND } from './common.js';
import type { PublisherPlugin } from './publisher.js';
import type { ToolPlugin, TrialParams } from './tool.js';
import type { z } from './zod.js';

// Methods are bivariant, so a plugin with a concrete block type is assignable here.
export type AnyPlugin = CloudPlugin<unknown> | ToolPlugin<unknown> | PublisherPlugin<unknown>;

export type Branded<P> = P & { readonly [PLUGIN_BRAND]: true; readonly apiVersion: number };

/** What a block schema produces once parsed (defaults applied): the type a plugin's hooks receive. */
export type BlockOf<S> = z.output<S>;

/**
 * A tool whose block type comes from its `schema`: `trials(params)` and
 * `parse` need no annotations. `S` is the zod schema itself, so
 * `definePlugin({ kind: 'tool', schema: z.strictObject({ n: z.int() }), trials: (p) => ... })`
 * types `p` as `{ n: number }`, and the `params` of the trials it returns
 * (`T`, e.g. `{ count: number }`) type `trial.params` in `run`.
 */
export type ToolDefinition<S extends BlockSchema<unknown>, T extends TrialParams = TrialParams> = ToolPlugin<BlockOf<S>, T> & { readonly schema: S };

/** A cloud whose host fields (`HostRequest.config`) come from its `hostSchema`. */
export type CloudDefinition<S extends BlockSchema<unknown>> = CloudPlugin<BlockOf<S>> & { readonly hostSchema: S };

/** A publisher whose `settings` come from its `schema`. */
export type PublisherDefinition<S extends BlockSchema<unknown>> = PublisherPlugin<BlockOf<S>> & { readonly schema: S };

/**
 * Make a plugin. The default export of a plugin package is this function's
 * result: the object, frozen, with `apiVersion` defaulted to the contract
 * version this core implements and the brand the loader recognises.
 *
 * The first three signatures infer the block type from the zod schema; the
 * last accepts an explicitly typed plugin (`definePlugin<ToolPlugin<P>>(...)`
 * or a variable annotated as `CloudPlugin<C>`).
 */
export function definePlugin<S extends BlockSchema<unknown>, T extends TrialParams>(plugin: ToolDefinition<S, T>): Branded<ToolDefinition<S, T>>;
export function definePlugin<S extends BlockSchema<unknown>>(plugin: CloudDefinition<S>): Branded<CloudDefinition<S>>;
export function definePlugin<S extends BlockSchema<unknown>>(plugin: PublisherDefinition<S>): Branded<PublisherDefinition<S>>;
export function definePlugin<P extends AnyPlugin>(plugin: P): Branded<P>;
export function definePlugin(plugin: AnyPlugin): Branded<AnyPlugin> {
  const branded = { apiVersion: PLUGIN_API_VERSION, ...plugin };
  Object.defineProperty(branded, PLUGIN_BRAND, { value: true, enumerable: false });
  return Object.freeze(branded) as Branded<AnyPlugin>;
}

/** Recognise a plugin object, even one made by another copy of `@netbench/core`. */
export function isPlugin(value: unknown): value is Branded<AnyPlugin> {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[PLUGIN_BRAND] === true;
}
