// Public entry of @netbench/plugin-static: the plugin (default) and its host schema.
export { staticPlugin as default, staticPlugin } from './static-plugin.js';
export { hostSchema } from './host-schema.js';
export type { StaticHostConfig, JumpConfig } from './host-schema.js';
export { HOST_KEY_LABEL } from './provision.js';
