import { definePlugin } from '@netbench/plugin-api';
import { type Connection, publishRows } from './publish-rows.js';
import { insertRows } from './rows.js';
import { type BigQuerySettings, settingsSchema } from './settings.js';

/**
 * The BigQuery publisher: rows in PerfKit Benchmarker's sample schema, the
 * table created when missing. `connection.authClient` replaces the SDK's
 * credential chain (for tests, or an application's own auth).
 */
export function bigqueryPlugin(connection: Connection = {}) {
  return definePlugin({
    kind: 'publisher',
    name: 'bigquery',
    version: '0.1.0',
    description: "Streams samples into a BigQuery table with PerfKit Benchmarker's sample schema.",
    schema: settingsSchema,
    async publish(run, samples, settings: BigQuerySettings, ctx) {
      if (samples.length === 0) return { count: 0 };
      const location = await publishRows(insertRows(run, samples), settings, connection, ctx);
      return { location: `bigquery:${location}`, count: samples.length };
    },
  });
}
export type { BigQuerySettings, Connection };
export { settingsSchema };
