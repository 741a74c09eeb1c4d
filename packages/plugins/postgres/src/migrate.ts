import { NetbenchError } from '@netbench/plugin-api';
import type { ClientBase } from 'pg';
import { forSchema, PG_MIGRATIONS, PG_SCHEMA_VERSION } from './schema-sql.js';

/** Advisory lock class for netbench's schema changes and ingests (any constant; ours). */
const LOCK_CLASS = 0x4e42;

/**
 * Inside the caller's transaction: serialise with other netbench writers on
 * this schema (advisory lock until commit), create the schema and apply the
 * missing migrations. Refuses a schema written by a newer netbench, and a
 * schema whose `runs` table netbench did not make.
 */
export async function ensureSchema(client: ClientBase, schema: string): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOCK_CLASS, schema]);
  await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  const tables = await client.query<{ table_name: string }>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_name IN ('netbench_schema', 'runs')",
    [schema],
  );
  const names = new Set(tables.rows.map((r) => r.table_name));
  if (!names.has('netbench_schema') && names.has('runs')) {
    throw new NetbenchError(`schema "${schema}" already has a runs table that netbench did not create; set the publisher's schema to another name`);
  }
  await client.query(`CREATE TABLE IF NOT EXISTS "${schema}".netbench_schema (version integer NOT NULL)`);
  const row = await client.query<{ version: number }>(`SELECT max(version) AS version FROM "${schema}".netbench_schema`);
  const current = row.rows[0]?.version ?? 0;
  if (current > PG_SCHEMA_VERSION) {
    throw new NetbenchError(
      `schema "${schema}" was written by a newer netbench (v${current}; this netbench knows up to v${PG_SCHEMA_VERSION}); nothing was changed — upgrade netbench`,
    );
  }
  for (const migration of PG_MIGRATIONS) {
    if (migration.version > current) await client.query(forSchema(migration.sql, schema));
  }
  if (current < PG_SCHEMA_VERSION) {
    await client.query(`DELETE FROM "${schema}".netbench_schema`);
    await client.query(`INSERT INTO "${schema}".netbench_schema (version) VALUES ($1)`, [PG_SCHEMA_VERSION]);
  }
}
