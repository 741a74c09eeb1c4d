// Public entry of @netbench/plugin-azure: the plugin (default), its factory and the pieces other code reuses.
export { azurePlugin as default, azurePlugin, createAzurePlugin } from './azure-plugin.js';
export { AZURE_CATALOG } from './catalog.js';
export type { AzureApiOptions } from './clients.js';
export { StaticTokenCredential } from './clients.js';
export type { AzureHostConfig } from './host-schema.js';
export { hostSchema } from './host-schema.js';
export type { AzurePriceTable } from './price-table.js';
export { AZURE_PRICES } from './price-table.js';
export type { AzurePluginOptions, AzureTiming } from './runtime.js';
