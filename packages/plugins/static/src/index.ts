// Public entry of @netbench/plugin-static: the plugin (default) and its host schema.

export type { JumpConfig, StaticHostConfig } from './host-schema.js';
export { hostSchema } from './host-schema.js';
export { HOST_KEY_LABEL } from './provision.js';
export { staticPlugin as default, staticPlugin } from './static-plugin.js';
