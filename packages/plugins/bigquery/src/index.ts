// The package entry: the plugin as the default export (made in ./plugin.js), and what embedders and tests use.
import { bigqueryPlugin } from './plugin.js';

export { BigQueryPublishError, publishError } from './errors.js';
export type { PkbFieldName } from './pkb-schema.js';
export { PKB_SCHEMA_FIELDS } from './pkb-schema.js';
export type { BigQuerySettings, Connection } from './plugin.js';
export { bigqueryPlugin, settingsSchema } from './plugin.js';
export type { InsertRow } from './rows.js';
export { insertRows, withPkbAliases } from './rows.js';

export default bigqueryPlugin();
