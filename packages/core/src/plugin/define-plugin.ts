import { PLUGIN_API_VERSION, PLUGIN_BRAND } from './common.js';
import type { CloudPlugin } from './cloud.js';
import type { PublisherPlugin } from './publisher.js';
import type { ToolPlugin } from './tool.js';

// Methods are bivariant, so a plugin with a concrete block type is assignable here.
export type AnyPlugin = CloudPlugin<unknown> | ToolPlugin<unknown> | PublisherPlugin<unknown>;

export type Branded<P> = P & { readonly [PLUGIN_BRAND]: true; readonly apiVersion: number };

/** Make a plugin. The default export of a plugin package is this function's result. */
export function definePlugin<P extends AnyPlugin>(plugin: P): Branded<P> {
  const branded = { apiVersion: PLUGIN_API_VERSION, ...plugin };
  Object.defineProperty(branded, PLUGIN_BRAND, { value: true, enumerable: false });
  return Object.freeze(branded) as Branded<P>;
}

/** Recognise a plugin object, even one made by another copy of `@netbench/core`. */
export function isPlugin(value: unknown): value is Branded<AnyPlugin> {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[PLUGIN_BRAND] === true;
}
