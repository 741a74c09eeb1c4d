// The package entry: the plugin as the default export (made in ./plugin.js), and what embedders and tests use.
export { maskSecrets, maskUrl } from './mask.js';
export { postgresPlugin as default, postgresPlugin } from './plugin.js';
export { PG_MIGRATIONS, PG_SCHEMA_VERSION } from './schema-sql.js';
export type { PostgresSettings } from './settings.js';
export { settingsSchema } from './settings.js';
