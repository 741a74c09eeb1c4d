// Core functions behind `netbench plugins list|add|remove|info|new`.

export type { AddedPlugin, AddPluginOptions } from './add-plugin.js';
export { addPlugin } from './add-plugin.js';
export type { ListPluginsOptions, PluginList, PluginListing } from './list-plugins.js';
export { listPlugins } from './list-plugins.js';
export type { NewPlugin, NewPluginOptions } from './new-plugin.js';
export { newPlugin } from './new-plugin.js';
export type { PluginField, PluginInfo, PluginInfoOptions } from './plugin-info.js';
export { pluginInfo } from './plugin-info.js';
export type { PluginSource } from './plugin-source.js';
export type { RemovePluginOptions } from './remove-plugin.js';
export { removePlugin } from './remove-plugin.js';
