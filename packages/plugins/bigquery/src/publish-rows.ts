import type { BigQuery, BigQueryOptions, Dataset, Table } from '@google-cloud/bigquery';
import type { PluginContext } from '@netbench/plugin-api';
import { BigQueryPublishError, publishError } from './errors.js';
import { PKB_SCHEMA_FIELDS } from './pkb-schema.js';
import type { InsertRow } from './rows.js';
import type { BigQuerySettings } from './settings.js';

export interface Connection {
  /** The SDK's own auth client (tests pass one holding a fixed token). */
  readonly authClient?: BigQueryOptions['authClient'];
}

/**
 * Send rows to BigQuery: GET the table; when it is missing (404) create it
 * with PKB's schema (creating the dataset first if that is missing too);
 * refuse a table that lacks PKB's fields; then tabledata.insertAll in
 * batches. The SDK is imported here, not at load, so the CLI does not pay
 * for it unless a spec publishes to BigQuery.
 */
export async function publishRows(rows: readonly InsertRow[], settings: BigQuerySettings, connection: Connection, ctx: Pick<PluginContext, 'log'>): Promise<string> {
  const { BigQuery: Client } = await import('@google-cloud/bigquery');
  const options: BigQueryOptions = {
    // The SDK reads maxRetries: 0 as "unset" (3 retries); switching retries off is autoRetry: false.
    ...(settings.maxRetries === 0 ? { autoRetry: false } : { maxRetries: settings.maxRetries }),
    ...(settings.projectId ? { projectId: settings.projectId } : {}),
    ...(settings.apiEndpoint ? { apiEndpoint: settings.apiEndpoint } : {}),
    ...(settings.location ? { location: settings.location } : {}),
    ...(settings.keyFilename ? { keyFilename: settings.keyFilename } : {}),
    ...(settings.credentials ? { credentials: settings.credentials } : {}),
    ...(connection.authClient ? { authClient: connection.authClient } : {}),
  };
  const client: BigQuery = new Client(options);
  const dataset = client.dataset(settings.dataset, settings.location ? { location: settings.location } : {});
  const table = dataset.table(settings.table);
  const name = `${settings.projectId ?? '(default project)'}:${settings.dataset}.${settings.table}`;
  await ensureTable(client, table, dataset, settings, name, ctx);
  for (let start = 0; start < rows.length; start += settings.batchSize) {
    const batch = rows.slice(start, start + settings.batchSize);
    try {
      // raw: our rows already carry insertId; no partial retries: a rejected row stays rejected.
      await table.insert([...batch], { raw: true, partialRetries: 0 });
    } catch (error) {
      const stored = start > 0 ? ` (rows 1–${start} were stored)` : '';
      throw publishError(error, `inserting rows ${start + 1}–${start + batch.length} of ${rows.length} into ${name}${stored}`);
    }
  }
  return name;
}

async function ensureTable(client: BigQuery, table: Table, dataset: Dataset, settings: BigQuerySettings, name: string, ctx: Pick<PluginContext, 'log'>): Promise<void> {
  let fields: readonly { name?: string }[] | undefined;
  try {
    const [metadata] = await table.getMetadata();
    fields = (metadata as { schema?: { fields?: { name?: string }[] } }).schema?.fields ?? [];
  } catch (error) {
    if ((error as { code?: unknown }).code !== 404) throw publishError(error, `reading table ${name}`);
    if (!settings.createTable) throw publishError(error, `table ${name} does not exist and createTable is false`);
  }
  if (fields) {
    const have = new Set(fields.map((f) => f.name));
    const missing = PKB_SCHEMA_FIELDS.filter((f) => !have.has(f.name)).map((f) => f.name);
    if (missing.length > 0) throw new BigQueryPublishError(`table ${name} exists but lacks PKB's fields ${missing.join(', ')}; publish to a new table or add them`);
    return;
  }
  const schema = { fields: PKB_SCHEMA_FIELDS.map((f) => ({ ...f })) };
  try {
    await dataset.createTable(settings.table, { schema });
    ctx.log.info(`created BigQuery table ${name} with PKB's sample schema`);
    return;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 409) return; // created meanwhile by another run
    if (code !== 404) throw publishError(error, `creating table ${name}`);
  }
  // 404 on tables.insert: the dataset itself is missing.
  try {
    // datasets.insert with the documented body only ({ datasetReference, location }); Dataset#create
    // would also send a top-level projectId, which the Dataset resource does not define.
    await client.createDataset(settings.dataset, {
      ...(settings.location ? { location: settings.location } : {}),
      ...(settings.projectId ? { datasetReference: { projectId: settings.projectId } } : {}),
    });
    ctx.log.info(`created BigQuery dataset ${settings.dataset}${settings.location ? ` in ${settings.location}` : ''}`);
  } catch (error) {
    if ((error as { code?: unknown }).code !== 409) throw publishError(error, `creating dataset ${settings.dataset}`);
  }
  try {
    await dataset.createTable(settings.table, { schema });
    ctx.log.info(`created BigQuery table ${name} with PKB's sample schema`);
  } catch (error) {
    if ((error as { code?: unknown }).code !== 409) throw publishError(error, `creating table ${name}`);
  }
}
