import { readFileSync } from 'node:fs';
import type { RunResults } from '@netbench/plugin-api';
import { isPlugin, type PluginContext } from '@netbench/plugin-api';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import postgres, { settingsSchema } from './index.js';
import { type PgServer, startPostgres } from './test-support/pg-server.js';

// The real quickstart run the results store's tests use.
const run = JSON.parse(readFileSync(new URL('../../../results/src/store/__fixtures__/quickstart-results.json', import.meta.url), 'utf8')) as RunResults;
const ctx: PluginContext = { runId: run.run.runId, runDir: run.run.runDir, signal: new AbortController().signal, log: { debug() {}, info() {}, warn() {} } };

let server: PgServer;
beforeAll(async () => {
  server = await startPostgres({ tls: true });
}, 120_000);
afterAll(() => server?.stop());

async function query<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: server.url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}
const publish = (settings: Record<string, unknown>) => postgres.publish(run.run, run.samples, settingsSchema.parse(settings), ctx);

describe('postgres publisher against a real PostgreSQL 15', () => {
  it("creates the schema and stores the run in the store's tables, in one go", async () => {
    expect(isPlugin(postgres)).toBe(true);
    const result = await publish({ url: server.url });
    expect(result.count).toBe(run.samples.length);
    expect(result.location).toBe(`postgres://postgres:***@127.0.0.1:${server.port}/postgres (schema netbench)`);
    const [runs] = await query<{ run_id: string; tools: string; sample_count: number; trial_count: number }>('SELECT run_id, tools, sample_count, trial_count FROM netbench.runs');
    expect(runs).toEqual({ run_id: run.run.runId, tools: 'iperf3,netperf,ping', sample_count: 55, trial_count: 5 });
    const counts = await query<{ samples: string; histograms: string; trials: string; metrics: string }>(`SELECT
      (SELECT count(*) FROM netbench.samples) AS samples, (SELECT count(*) FROM netbench.histograms) AS histograms,
      (SELECT count(*) FROM netbench.trials) AS trials, (SELECT count(*) FROM netbench.run_metrics) AS metrics`);
    expect(counts[0]).toEqual({
      samples: '55',
      histograms: String(run.samples.filter((s) => s.histogram).length),
      trials: '5',
      metrics: String(new Set(run.samples.map((s) => s.metric)).size),
    });
    // Labels are rows, joinable to samples, as in SQLite.
    const reverse = await query<{ value: number }>(`SELECT s.value FROM netbench.samples s JOIN netbench.labels l ON l.run_pk = s.run_pk AND l.set_no = s.label_set
      WHERE l.key = 'direction' AND l.value = 'reverse' AND s.metric = 'Latency p50'`);
    expect(reverse.map((r) => r.value)).toEqual(run.samples.filter((s) => s.metric === 'Latency p50' && s.labels['direction'] === 'reverse').map((s) => s.value));
    const [version] = await query<{ version: number }>('SELECT version FROM netbench.netbench_schema');
    expect(version).toEqual({ version: 2 });
  });

  it('replaces a run published again instead of duplicating it', async () => {
    await publish({ url: server.url });
    await publish({ url: server.url });
    expect(await query('SELECT count(*)::int AS n FROM netbench.samples')).toEqual([{ n: 55 }]);
    expect(await query('SELECT count(*)::int AS n FROM netbench.runs')).toEqual([{ n: 1 }]);
  });

  it('verifies TLS as asked: require, verify-full with the CA, and refuses an unknown CA', async () => {
    await expect(publish({ url: server.url, schema: 'tls_require', ssl: { mode: 'require' } })).resolves.toMatchObject({ count: 55 });
    await expect(publish({ url: server.url, schema: 'tls_full', ssl: { mode: 'verify-full', ca: server.certFile } })).resolves.toMatchObject({ count: 55 });
    await expect(publish({ url: server.url, schema: 'tls_bad', ssl: { mode: 'verify-full' } })).rejects.toThrow(/cannot connect to PostgreSQL at .*self-signed certificate/);
    await expect(publish({ url: server.url, ssl: { mode: 'verify-ca', ca: '/nonexistent/ca.pem' } })).rejects.toThrow(/ssl\.ca: cannot read \/nonexistent\/ca\.pem/);
  });

  it('never shows a password: wrong password, unreachable server', async () => {
    const wrong = `postgres://postgres:Wr0ngPassw0rd@127.0.0.1:${server.port}/postgres`;
    const auth = await publish({ url: wrong }).catch((e: Error) => e);
    expect(String(auth)).toMatch(/password authentication failed/);
    expect(String(auth)).not.toContain('Wr0ngPassw0rd');
    const down = await publish({ url: 'postgres://ana:Hunter2xyz@127.0.0.1:1/bench', connectTimeout: 2 }).catch((e: Error) => e);
    expect(String(down)).toMatch(/cannot connect to PostgreSQL at postgres:\/\/ana:\*\*\*@127\.0\.0\.1:1\/bench: .*ECONNREFUSED/);
    expect(String(down)).not.toContain('Hunter2xyz');
  });

  it('never shows a password with a raw @ in a URL, nor in a keyword/value conninfo string; connects with the latter', async () => {
    const raw = await publish({ url: `postgres://postgres:Wr0ng@Passw0rd@127.0.0.1:${server.port}/postgres` }).catch((e: Error) => e);
    expect(String(raw)).toMatch(/cannot connect to PostgreSQL at postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/postgres: .*password authentication failed/);
    expect(String(raw)).not.toMatch(/Wr0ng|Passw0rd/);
    const keyword = `host=127.0.0.1 port=${server.port} user=postgres dbname=postgres sslmode=disable`;
    const wrong = await publish({ url: `${keyword} password='Wr0ng Passw0rd'` }).catch((e: Error) => e);
    expect(String(wrong)).toMatch(/password authentication failed/);
    expect(String(wrong)).not.toMatch(/Wr0ng|Passw0rd/);
    const right = await publish({ url: `${keyword} password=${server.password}`, schema: 'conninfo' });
    expect(right).toEqual({ location: `${keyword} password=*** (schema conninfo)`, count: 55 });
    expect(right.location).not.toContain(server.password);
  });

  it('refuses a schema from a newer netbench, or one whose runs table is not ours, changing nothing', async () => {
    await query('CREATE SCHEMA other; CREATE TABLE other.runs (id int)');
    await expect(publish({ url: server.url, schema: 'other' })).rejects.toThrow(/schema "other" already has a runs table that netbench did not create/);
    await query('UPDATE netbench.netbench_schema SET version = 9');
    await expect(publish({ url: server.url })).rejects.toThrow(/written by a newer netbench \(v9; this netbench knows up to v2\)/);
    expect(await query('SELECT count(*)::int AS n FROM netbench.samples')).toEqual([{ n: 55 }]);
    await query('UPDATE netbench.netbench_schema SET version = 2');
  });
});
