// Public entry of @netbench/plugin-gcp: the plugin (default), its factory and the pieces other code reuses.

export { parseConsoleHostKeys } from '@netbench/plugin-api/cloud-kit';
export { GCP_CATALOG } from './catalog.js';
export type { GcpApiOptions, GcpAuthClient } from './clients.js';
export { StaticTokenAuth } from './clients.js';
export { createGcpPlugin, gcpPlugin as default, gcpPlugin } from './gcp-plugin.js';
export type { GcpHostConfig } from './host-schema.js';
export { hostSchema } from './host-schema.js';
export type { GcpPriceTable } from './price-table.js';
export { GCP_PRICES } from './price-table.js';
export type { GcpPluginOptions, GcpTiming } from './runtime.js';
