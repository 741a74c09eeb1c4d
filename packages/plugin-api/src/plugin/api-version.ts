import { PLUGIN_API_VERSION } from './common.js';

/** Oldest plugin contract version this core still loads. */
export const MIN_PLUGIN_API_VERSION = 1;

/** Why a plugin's `apiVersion` cannot be loaded, or `undefined` when it can. */
export function apiVersionProblem(apiVersion: unknown): string | undefined {
  if (typeof apiVersion === 'number' && Number.isInteger(apiVersion) && apiVersion >= MIN_PLUGIN_API_VERSION && apiVersion <= PLUGIN_API_VERSION) return undefined;
  const range = MIN_PLUGIN_API_VERSION === PLUGIN_API_VERSION ? `${PLUGIN_API_VERSION}` : `${MIN_PLUGIN_API_VERSION}-${PLUGIN_API_VERSION}`;
  const newer = typeof apiVersion === 'number' && apiVersion > PLUGIN_API_VERSION;
  return `it was written for plugin API version ${String(apiVersion)}, but this netbench supports ${range}; ${newer ? 'upgrade netbench' : 'upgrade the plugin'}`;
}
