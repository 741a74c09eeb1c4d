export type * from './cloud.js';
export * from './common.js';
export type { AnyPlugin, BlockOf, Branded, CloudDefinition, PublisherDefinition, ToolDefinition } from './define-plugin.js';
export { definePlugin, isPlugin } from './define-plugin.js';
export type * from './host.js';
export type * from './publisher.js';
export type * from './ssh.js';
export type * from './tool.js';
