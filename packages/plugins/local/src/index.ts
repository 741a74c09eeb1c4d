// Public entry of @netbench/plugin-local: the plugin (default) and facts for `netbench doctor`.

export type { LocalCapabilities } from './capabilities.js';
export { localCapabilities } from './capabilities.js';
export type { LinkConfig, LocalHostConfig } from './host-schema.js';
export { hostSchema } from './host-schema.js';
export { localPlugin as default, localPlugin } from './local-plugin.js';
export { bridgeName, hubName, namespaceName, runTag, vethName } from './naming.js';
