import { definePlugin, NetbenchError } from '@netbench/plugin-api';
import { storeRows } from '@netbench/plugin-api/publisher-kit';
import pg from 'pg';
import { connection } from './connection.js';
import { ingestRows } from './ingest.js';
import { maskSecrets } from './mask.js';
import { ensureSchema } from './migrate.js';
import { type PostgresSettings, settingsSchema } from './settings.js';

/**
 * Publishes a run into PostgreSQL: the results store's tables in a schema
 * (default `netbench`), created and migrated on first use, one transaction
 * per run; publishing a run again replaces it. Errors never show a password.
 */
/** `postgres`: the plugin object (the package's default export). */
export const postgresPlugin = definePlugin({
  kind: 'publisher',
  name: 'postgres',
  version: '0.1.0',
  description: 'Stores runs in PostgreSQL, in the same tables as the local results store.',
  schema: settingsSchema,
  async publish(run, samples, settings: PostgresSettings, ctx) {
    const rows = storeRows({ run, samples });
    const { config, target, secrets, passwordGuard } = await connection(settings);
    const mask = (text: string) => maskSecrets(text, secrets);
    const client = new pg.Client(config);
    // node-postgres fills a missing password from PGPASSWORD, then ~/.pgpass, when the server asks; a function
    // there (its documented form) is asked instead. Set after construction: a connection string's empty password
    // would override one in the config.
    if (passwordGuard) Object.assign(client, { password: passwordGuard });
    // A connection that drops mid-ingest emits 'error' on the client; the query then fails too.
    client.on('error', () => {});
    const abort = () => void client.end().catch(() => {});
    ctx.signal.addEventListener('abort', abort, { once: true });
    try {
      try {
        await client.connect();
      } catch (error) {
        if (error instanceof NetbenchError) throw error;
        throw new NetbenchError(`cannot connect to PostgreSQL at ${target}: ${mask(describe(error))}`);
      }
      try {
        await client.query('BEGIN');
        await ensureSchema(client, settings.schema);
        await ingestRows(client, settings.schema, rows);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        if (error instanceof NetbenchError) throw new NetbenchError(mask(error.message));
        throw new NetbenchError(`storing run ${run.runId} in PostgreSQL at ${target} failed, nothing was stored: ${mask(describe(error))}`);
      }
      return { location: `${target} (schema ${settings.schema})`, count: samples.length };
    } finally {
      ctx.signal.removeEventListener('abort', abort);
      await client.end().catch(() => {});
    }
  },
});

function describe(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return error.errors.map(describe).join('; ');
  if (error instanceof Error) return error.message || (error as NodeJS.ErrnoException).code || error.name;
  return String(error);
}
