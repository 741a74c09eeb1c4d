import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PluginContext, RunResults } from '@netbench/plugin-api';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import postgres, { settingsSchema } from './index.js';
import { type PgServer, startPostgres } from './test-support/pg-server.js';

const run = JSON.parse(readFileSync(new URL('../../../results/src/store/__fixtures__/quickstart-results.json', import.meta.url), 'utf8')) as RunResults;
const ctx: PluginContext = { runId: run.run.runId, runDir: run.run.runDir, signal: new AbortController().signal, log: { debug() {}, info() {}, warn() {} } };
const publish = (settings: Record<string, unknown>) => postgres.publish(run.run, run.samples, settingsSchema.parse(settings), ctx);

// node-postgres reads these from process.env itself: each test sets its own and the originals come back after.
const VARS = ['PGPASSWORD', 'PGPASSFILE', 'PGHOST', 'PGPORT', 'NETBENCH_POSTGRES_URL'] as const;
const saved = Object.fromEntries(VARS.map((name) => [name, process.env[name]]));
const setEnv = (values: Partial<Record<(typeof VARS)[number], string>>) => {
  for (const name of VARS) {
    if (values[name] === undefined) delete process.env[name];
    else process.env[name] = values[name];
  }
};

let server: PgServer;
let dir: string;
beforeAll(async () => {
  server = await startPostgres();
  dir = mkdtempSync(join(tmpdir(), 'nbt-pgpass-'));
}, 120_000);
afterEach(() => setEnv(saved));
afterAll(() => {
  server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// A spec's url without a password: the runner's own credentials are for the servers the runner named, not this one.
describe("the runner's PGPASSWORD and ~/.pgpass go only to servers the runner named", () => {
  const bare = () => `postgres://postgres@127.0.0.1:${server.port}/postgres`;
  const refused = /asks for a password and the url names none; netbench sends PGPASSWORD and ~\/\.pgpass only to the server NETBENCH_POSTGRES_URL or PGHOST\/PGPORT name/;

  it('does not send PGPASSWORD to a server only a url setting names', async () => {
    setEnv({ PGPASSWORD: server.password });
    const error = await publish({ url: bare(), schema: 'env_spec' }).catch((e: Error) => e);
    expect(String(error)).toMatch(refused);
    expect(String(error)).not.toContain(server.password);
  });

  it('does not send a ~/.pgpass (PGPASSFILE) entry to it either', async () => {
    const file = join(dir, 'pgpass');
    writeFileSync(file, `*:*:*:*:${server.password}\n`, { mode: 0o600 });
    setEnv({ PGPASSFILE: file });
    await expect(publish({ url: bare(), schema: 'pgpass_spec' })).rejects.toThrow(refused);
  });

  it('still uses them for the server PGHOST/PGPORT or NETBENCH_POSTGRES_URL name, and a password in the url anywhere', async () => {
    setEnv({ PGPASSWORD: server.password, PGHOST: '127.0.0.1', PGPORT: String(server.port) });
    await expect(publish({ url: bare(), schema: 'env_pghost' })).resolves.toMatchObject({ count: run.samples.length });
    setEnv({ PGPASSWORD: server.password, NETBENCH_POSTGRES_URL: bare() });
    await expect(publish({ url: bare(), schema: 'env_url' })).resolves.toMatchObject({ count: run.samples.length });
    await expect(publish({ schema: 'env_default' })).resolves.toMatchObject({ count: run.samples.length });
    const file = join(dir, 'pgpass');
    writeFileSync(file, `127.0.0.1:${server.port}:*:postgres:${server.password}\n`, { mode: 0o600 });
    setEnv({ PGPASSFILE: file, PGHOST: '127.0.0.1', PGPORT: String(server.port) });
    await expect(publish({ url: `host=127.0.0.1 port=${server.port} user=postgres dbname=postgres`, schema: 'pgpass_pghost' })).resolves.toMatchObject({
      count: run.samples.length,
    });
    setEnv({});
    await expect(publish({ url: server.url, schema: 'url_password' })).resolves.toMatchObject({ count: run.samples.length });
  });
});
