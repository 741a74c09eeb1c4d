// The package entry: the plugin as the default export (made in ./plugin.js), and what embedders and tests use.
export { csvField, FIXED_COLUMNS, formatCsv, labelColumns } from './csv-format.js';
export type { CsvSettings } from './plugin.js';
export { csvPlugin as default, csvPlugin } from './plugin.js';
