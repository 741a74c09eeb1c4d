// The package entry: the plugin as the default export (made in ./plugin.js), and what embedders and tests use.
export { csvField, formatCsv, labelColumns, FIXED_COLUMNS } from './csv-format.js';
export { csvPlugin as default, csvPlugin } from './plugin.js';
export type { CsvSettings } from './plugin.js';
