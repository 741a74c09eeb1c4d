// Core functions behind `netbench plugins list|add|remove|info|new`.
export { addPlugin } from './add-plugin.js';
export type { AddPluginOptions, AddedPlugin } from './add-plugin.js';
export { removePlugin } from './remove-plugin.js';
export type { RemovePluginOptions } from './remove-plugin.js';
export { listPlugins } from './list-plugins.js';
export type { ListPluginsOptions, PluginList, PluginListing } from './list-plugins.js';
export { pluginInfo } from './plugin-info.js';
export type { PluginField, PluginInfo, PluginInfoOptions } from './plugin-info.js';
export { newPlugin } from './new-plugin.js';
export type { NewPlugin, NewPluginOptions } from './new-plugin.js';
export type { PluginSource } from './plugin-source.js';
