import type { RunRecord, Sample } from '@netbench/plugin-api';
import { isPlugin, type PluginContext, type PublishResult } from '@netbench/plugin-api';
import { OAuth2Client } from 'google-auth-library';
import { afterEach, describe, expect, it } from 'vitest';
import { bigqueryPlugin, PKB_SCHEMA_FIELDS, settingsSchema, withPkbAliases } from './index.js';
import { FakeBigQuery, googleError, type Reply, type Responder } from './test-support/fake-bigquery.js';

// Contract tests of the REST exchange the SDK makes for us, against a local
// HTTP server (no emulator exists for BigQuery). The SDK is real; only the
// server is scripted.

const PROJECT = 'nb-test';
const BASE = `/bigquery/v2/projects/${PROJECT}`;
const TABLE_PATH = `${BASE}/datasets/netbench/tables/samples`;
const TOKEN = 'test-token-123';

const run = { runId: '20261122-110256-k3f9a2', name: 'quickstart', owner: 'ana' } as unknown as RunRecord;
const labels = {
  run_id: run.runId,
  tool: 'ping',
  benchmark: 'ping',
  test: 'icmp',
  direction: 'reverse',
  ip_type: 'internal',
  client_cloud: 'gcp',
  client_zone: 'us-west1-a',
  client_machine_type: 'n1-standard-2',
  server_cloud: 'gcp',
  server_zone: 'europe-west1-c',
  server_machine_type: 'n1-standard-2',
};
const samples: Sample[] = ['Average Latency', 'Latency p50', 'Latency p99', 'Packet Loss', 'Packets Sent'].map((metric, i) => ({
  runId: run.runId,
  sampleId: `${run.runId}-${i + 1}`,
  trialId: 't0001',
  metric,
  value: [131.2, 130.9, 133.4, 0, 60][i]!,
  unit: ['ms', 'ms', 'ms', 'percent', 'count'][i]!,
  timestamp: 1_763_809_376_512 + i,
  labels,
}));

const logs: string[] = [];
const ctx: PluginContext = {
  runId: run.runId,
  runDir: '/tmp/unused',
  signal: new AbortController().signal,
  log: { debug() {}, info: (m) => logs.push(m), warn: (m) => logs.push(m) },
};

/** A real google-auth-library client holding a fixed, unexpired token: no network to get one. */
function fakeAuth(): OAuth2Client {
  const client = new OAuth2Client();
  client.setCredentials({ access_token: TOKEN, expiry_date: Date.now() + 3_600_000 });
  return client;
}

const servers: FakeBigQuery[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
  logs.length = 0;
});

async function publishTo(responder: Responder, settings: Record<string, unknown> = {}, sent: readonly Sample[] = samples) {
  const server = new FakeBigQuery(responder);
  servers.push(server);
  const endpoint = await server.start();
  const plugin = bigqueryPlugin({ authClient: fakeAuth() });
  const parsed = plugin.schema.parse({ projectId: PROJECT, dataset: 'netbench', table: 'samples', apiEndpoint: endpoint, maxRetries: 0, ...settings });
  const outcome: { result?: PublishResult; error?: Error } = await plugin.publish(run, sent, parsed, ctx).then(
    (result) => ({ result }),
    (error: unknown) => ({ error: error as Error }),
  );
  return { server, ...outcome };
}

const ok = (body: unknown = {}): Reply => ({ status: 200, body });
const tableResource = { kind: 'bigquery#table', tableReference: { projectId: PROJECT, datasetId: 'netbench', tableId: 'samples' }, schema: { fields: PKB_SCHEMA_FIELDS } };

describe('bigquery publisher REST contract', () => {
  it("creates a missing table with PKB's schema, then streams the rows", async () => {
    const { server, result, error } = await publishTo((req) => {
      if (req.method === 'GET') return googleError(404, 'notFound', `Not found: Table ${PROJECT}:netbench.samples`);
      if (req.path.endsWith('/tables')) return ok(tableResource);
      return ok({ kind: 'bigquery#tableDataInsertAllResponse' });
    });
    expect(error).toBeUndefined();
    expect(result).toEqual({ location: `bigquery:${PROJECT}:netbench.samples`, count: 5 });
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET ${TABLE_PATH}`, `POST ${BASE}/datasets/netbench/tables`, `POST ${TABLE_PATH}/insertAll`]);
    for (const request of server.requests) {
      expect(request.headers.authorization).toBe(`Bearer ${TOKEN}`);
      expect(request.query).toBe('?prettyPrint=false');
    }
    expect(server.requests[2]!.headers['content-type']).toMatch(/^application\/json/);
    expect(server.requests[1]!.body).toEqual({
      tableReference: { projectId: PROJECT, datasetId: 'netbench', tableId: 'samples' },
      schema: {
        fields: [
          { name: 'unit', type: 'STRING', mode: 'NULLABLE' },
          { name: 'labels', type: 'STRING', mode: 'NULLABLE' },
          { name: 'timestamp', type: 'FLOAT', mode: 'NULLABLE' },
          { name: 'product_name', type: 'STRING', mode: 'NULLABLE' },
          { name: 'test', type: 'STRING', mode: 'NULLABLE' },
          { name: 'official', type: 'BOOLEAN', mode: 'NULLABLE' },
          { name: 'metric', type: 'STRING', mode: 'NULLABLE' },
          { name: 'value', type: 'FLOAT', mode: 'NULLABLE' },
          { name: 'owner', type: 'STRING', mode: 'NULLABLE' },
          { name: 'run_uri', type: 'STRING', mode: 'NULLABLE' },
          { name: 'sample_uri', type: 'STRING', mode: 'NULLABLE' },
        ],
      },
    });
    const insert = server.requests[2]!.body as { rows: { insertId: string; json: Record<string, unknown> }[] };
    expect(Object.keys(insert)).toEqual(['rows']);
    expect(insert.rows).toHaveLength(5);
    expect(insert.rows[0]).toEqual({
      insertId: `${run.runId}-1`,
      json: {
        metric: 'Average Latency',
        value: 131.2,
        unit: 'ms',
        timestamp: 1_763_809_376.512,
        test: 'ping',
        product_name: 'netbench',
        official: false,
        owner: 'ana',
        run_uri: run.runId,
        sample_uri: `${run.runId}-1`,
        labels: expect.any(String) as unknown,
      },
    });
    expect(logs.join('\n')).toMatch(/created BigQuery table nb-test:netbench.samples/);
  });

  it("writes labels the whitepaper's REGEXP_EXTRACT queries read (sender = server for direction reverse)", async () => {
    const { server } = await publishTo((req) => (req.method === 'GET' ? ok(tableResource) : ok({})));
    const row = (server.requests[1]!.body as { rows: { json: { labels: string } }[] }).rows[0]!.json;
    // The whitepaper's section 5.1 query, as JavaScript regexes.
    const extract = (re: RegExp) => re.exec(row.labels)?.[1];
    expect(extract(/\|sending_zone:(.*?)\|/)).toBe('europe-west1-c');
    expect(extract(/\|receiving_zone:(.*?)\|/)).toBe('us-west1-a');
    // The whitepaper's region expression (.*?-.*)-.* is greedy up to the last "-…|" of the whole
    // string, on PKB's own rows too; an anchored one reads the region.
    expect(extract(/\|sending_zone:([a-z]+-[a-z]+\d+)-[a-z]\|/)).toBe('europe-west1');
    expect(extract(/\|receiving_zone:([a-z]+-[a-z]+\d+)-[a-z]\|/)).toBe('us-west1');
    expect(extract(/\|vm_1_cloud:(.*?)\|/)).toBe('gcp');
    expect(extract(/\|vm_1_machine_type:(.*?)\|/)).toBe('n1-standard-2');
    expect(extract(/\|ip_type:(.*?)\|/)).toBe('internal');
    // An explicit label is never overwritten by an alias.
    expect(withPkbAliases({ client_zone: 'a', sending_zone: 'kept' })['sending_zone']).toBe('kept');
  });

  it("uses an existing table with PKB's fields as it is: no create", async () => {
    const { server, error } = await publishTo((req) => (req.method === 'GET' ? ok(tableResource) : ok({})));
    expect(error).toBeUndefined();
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET ${TABLE_PATH}`, `POST ${TABLE_PATH}/insertAll`]);
  });

  it("refuses a table that lacks PKB's fields, before inserting anything", async () => {
    const foreign = {
      ...tableResource,
      schema: {
        fields: [
          { name: 'metric', type: 'STRING' },
          { name: 'value', type: 'FLOAT' },
        ],
      },
    };
    const { server, error } = await publishTo(() => ok(foreign));
    expect(error?.message).toMatch(/nb-test:netbench\.samples exists but lacks PKB's fields unit, labels, timestamp, product_name, test, official, owner, run_uri, sample_uri/);
    expect(server.requests).toHaveLength(1);
  });

  it('creates the dataset (in the given location) when the table create says it is missing', async () => {
    let tableCreates = 0;
    const { server, error } = await publishTo(
      (req) => {
        if (req.method === 'GET') return googleError(404, 'notFound', `Not found: Table ${PROJECT}:netbench.samples`);
        if (req.path === `${BASE}/datasets/netbench/tables`) {
          tableCreates += 1;
          return tableCreates === 1 ? googleError(404, 'notFound', `Not found: Dataset ${PROJECT}:netbench`) : ok(tableResource);
        }
        if (req.path === `${BASE}/datasets`) return ok({ kind: 'bigquery#dataset', datasetReference: { projectId: PROJECT, datasetId: 'netbench' } });
        return ok({});
      },
      { location: 'EU' },
    );
    expect(error).toBeUndefined();
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET ${TABLE_PATH}`,
      `POST ${BASE}/datasets/netbench/tables`,
      `POST ${BASE}/datasets`,
      `POST ${BASE}/datasets/netbench/tables`,
      `POST ${TABLE_PATH}/insertAll`,
    ]);
    expect(server.requests[2]!.body).toEqual({ datasetReference: { datasetId: 'netbench', projectId: PROJECT }, location: 'EU' });
    expect(logs.join('\n')).toMatch(/created BigQuery dataset netbench in EU/);
  });

  it('sends rows in batches of batchSize', async () => {
    const { server } = await publishTo((req) => (req.method === 'GET' ? ok(tableResource) : ok({})), { batchSize: 2 });
    const inserts = server.requests.filter((r) => r.path.endsWith('/insertAll'));
    expect(inserts.map((r) => (r.body as { rows: unknown[] }).rows.length)).toEqual([2, 2, 1]);
  });

  it('names the rejected rows when insertAll answers insertErrors, and does not re-send them', async () => {
    const { server, error } = await publishTo((req) => {
      if (req.method === 'GET') return ok(tableResource);
      return ok({
        kind: 'bigquery#tableDataInsertAllResponse',
        insertErrors: [
          { index: 1, errors: [{ reason: 'invalid', location: 'value', message: 'Cannot convert value to floating point (bad value): NaN' }] },
          ...[0, 2, 3, 4].map((index) => ({ index, errors: [{ reason: 'stopped', location: '', message: '' }] })),
        ],
      });
    });
    expect(error?.name).toBe('BigQueryPublishError');
    expect(error?.message).toMatch(/BigQuery rejected 1 row of the request, so none of its 5 rows were stored/);
    // The SDK keeps reason and message of each insertError (not its location).
    expect(error?.message).toMatch(/sample 20261122-110256-k3f9a2-2 \(Latency p50\): invalid: Cannot convert value/);
    expect(error?.message).toMatch(/inserting rows 1–5 of 5 into nb-test:netbench\.samples/);
    expect(server.requests.filter((r) => r.path.endsWith('/insertAll'))).toHaveLength(1);
  });

  it('says quota when BigQuery answers 403 quotaExceeded', async () => {
    const { error } = await publishTo((req) =>
      req.method === 'GET' ? ok(tableResource) : googleError(403, 'quotaExceeded', 'Quota exceeded: Your table exceeded quota for imports or query appends per table.'),
    );
    expect(error?.message).toMatch(/quota or rate limit exceeded \(quotaExceeded\): Quota exceeded: Your table exceeded quota/);
    expect(error?.message).toMatch(/samples are safe in the run folder/);
  });

  it('says which permission is missing on 403 accessDenied', async () => {
    const { server, error } = await publishTo(() => googleError(403, 'accessDenied', 'Access Denied: Table nb-test:netbench.samples: Permission bigquery.tables.get denied'));
    expect(error?.message).toMatch(/reading table nb-test:netbench\.samples: access denied \(accessDenied\).*BigQuery Data Editor/);
    expect(server.requests).toHaveLength(1);
  });

  it('says the endpoint cannot be reached', async () => {
    const server = new FakeBigQuery(() => ok({}));
    const endpoint = await server.start();
    await server.stop(); // a port that was just free: connection refused
    const plugin = bigqueryPlugin({ authClient: fakeAuth() });
    const settings = plugin.schema.parse({ projectId: PROJECT, dataset: 'netbench', table: 'samples', apiEndpoint: endpoint, maxRetries: 0 });
    await expect(plugin.publish(run, samples, settings, ctx)).rejects.toThrow(/reading table nb-test:netbench\.samples: cannot reach BigQuery \(ECONNREFUSED\)/);
  });

  it('validates its settings strictly and is a publisher plugin', async () => {
    const { default: plugin } = await import('./index.js');
    expect(isPlugin(plugin)).toBe(true);
    expect(plugin.kind).toBe('publisher');
    expect(settingsSchema.parse({ dataset: 'd', table: 't' })).toMatchObject({ createTable: true, batchSize: 500, maxRetries: 3 });
    expect(() => settingsSchema.parse({ dataset: 'd', table: 't', tabel: 'x' })).toThrow();
    expect(() => settingsSchema.parse({ dataset: 'bad.name', table: 't' })).toThrow();
    expect(() => settingsSchema.parse({ dataset: 'd', table: 't', apiEndpoint: 'not a url' })).toThrow();
  });
});
