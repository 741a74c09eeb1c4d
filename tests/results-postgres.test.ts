import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { RunResults } from '@netbench/plugin-api';
import type { StoredRunSummary } from '@netbench/results';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PgServer, startPostgres } from '../packages/plugins/postgres/src/test-support/pg-server.js';
import { runCli, tempHome } from './helpers/cli.js';
import { readResults } from './helpers/results.js';

const spec = join(import.meta.dirname, 'scenarios/results/postgres.yaml');

// A real PostgreSQL 15 from Debian, started for this file in a temp folder as the postgres user.
describe('publishing to PostgreSQL', () => {
  let server: PgServer;
  let home: string;
  let env: NodeJS.ProcessEnv;
  const count = async (sql: string): Promise<number> => {
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    try {
      return Number((await client.query<{ n: string }>(sql)).rows[0]!.n);
    } finally {
      await client.end();
    }
  };
  const runsIn = (dir: string) => readdirSync(dir).map((id) => readResults(join(dir, id)));

  beforeAll(async () => {
    server = await startPostgres();
    home = tempHome('netbench-e2e-pg-');
    env = { NETBENCH_HOME: home, NETBENCH_POSTGRES_URL: server.url };
  }, 120_000);
  afterAll(() => {
    server?.stop();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('a run publishes into PostgreSQL and the local store, with no password in sight', async () => {
    const result = await runCli(['run', spec, '--runs-dir', join(home, 'runs'), '--progress', 'plain'], { env });
    expect(result.code, result.stderr).toBe(0);
    const [run] = runsIn(join(home, 'runs')) as [RunResults];
    expect(await count(`SELECT count(*) AS n FROM netbench.samples s JOIN netbench.runs r USING (run_pk) WHERE r.run_id = '${run.run.runId}'`)).toBe(run.samples.length);
    expect(result.stderr).toMatch(/published \d+ samples via postgres to postgres:\/\/postgres:\*\*\*@127\.0\.0\.1/);
    expect(result.stderr + result.stdout).not.toContain(server.password);
    const list = JSON.parse((await runCli(['results', 'list', '--json'], { env })).stdout) as { runs: StoredRunSummary[] };
    expect(list.runs.map((r) => r.runId)).toEqual([run.run.runId]);
  });

  it('results publish re-sends a stored run, replacing it rather than duplicating', async () => {
    const before = await count('SELECT count(*) AS n FROM netbench.samples');
    const result = await runCli(['results', 'publish', 'latest', '--to', 'postgres'], { env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/published \d+ samples of .* via postgres to postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/postgres \(schema netbench\)/);
    expect(await count('SELECT count(*) AS n FROM netbench.samples')).toBe(before);
    // Settings on the command line: another schema.
    const other = await runCli(['results', 'publish', 'latest', '--to', 'postgres', '--setting', 'schema=team_a', '--setting', 'connectTimeout=5'], { env });
    expect(other.code, other.stderr).toBe(0);
    expect(await count('SELECT count(*) AS n FROM team_a.samples')).toBe(before);
    const bad = await runCli(['results', 'publish', 'latest', '--to', 'postgres', '--setting', 'schema=Bad-Name'], { env });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--to postgres\.schema: lower-case letters/);
  });

  it('an unreachable PostgreSQL is a clear error, exit 1, and the local store is untouched', async () => {
    const before = (await runCli(['results', 'export', 'latest'], { env })).stdout;
    const down = 'postgres://netbench:Sup3rSecretPw@127.0.0.1:1/bench';
    const result = await runCli(['results', 'publish', 'latest', '--to', 'postgres', '--setting', `url=${down}`, '--setting', 'connectTimeout=3'], { env });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/\[plugin postgres\] publish: cannot connect to PostgreSQL at postgres:\/\/netbench:\*\*\*@127\.0\.0\.1:1\/bench: .*ECONNREFUSED/);
    expect(result.stderr).not.toContain('Sup3rSecretPw');
    expect((await runCli(['results', 'export', 'latest'], { env })).stdout).toBe(before);

    // A run whose PostgreSQL is down: results.json and the local store have it, exit 8 (a failed publisher).
    const runs = join(home, 'runs-down');
    const run = await runCli(['run', spec, '--runs-dir', runs, '--progress', 'plain'], { env: { ...env, NETBENCH_POSTGRES_URL: down } });
    expect(run.code).toBe(8);
    expect(run.stderr).toMatch(/cannot connect to PostgreSQL at postgres:\/\/netbench:\*\*\*@127\.0\.0\.1:1\/bench/);
    expect(run.stderr + run.stdout).not.toContain('Sup3rSecretPw');
    const [stored] = runsIn(runs) as [RunResults];
    expect(stored.samples.length).toBeGreaterThan(0);
    const exported = JSON.parse((await runCli(['results', 'export', stored.run.runId], { env })).stdout) as RunResults[];
    expect(exported).toEqual([stored]);
  });
});
