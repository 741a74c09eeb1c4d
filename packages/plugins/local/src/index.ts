// Public entry of @netbench/plugin-local: the plugin (default) and facts for `netbench doctor`.
export { localPlugin as default, localPlugin } from './local-plugin.js';
export { localCapabilities } from './capabilities.js';
export type { LocalCapabilities } from './capabilities.js';
export { hostSchema } from './host-schema.js';
export type { LinkConfig, LocalHostConfig } from './host-schema.js';
export { runTag, namespaceName, bridgeName, hubName, vethName } from './naming.js';
