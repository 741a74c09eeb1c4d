// The package entry: the plugin as the default export (made in ./plugin.js), and what embedders and tests use.

export type { PkbRun, PkbSample } from './pkb-format.js';
export { formatPkbSamples, limitedBy, pkbCounterSamples, pkbLabels, pkbSample } from './pkb-format.js';
export type { JsonSettings } from './plugin.js';
export { jsonPlugin as default, jsonPlugin } from './plugin.js';
