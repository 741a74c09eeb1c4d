import { publisherConformance } from '@netbench/plugin-api/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import plugin from './index.js';
import { type PgServer, startPostgres } from './test-support/pg-server.js';

// A real PostgreSQL on loopback for the publishing checks.
let server: PgServer | undefined;
beforeAll(async () => {
  server = await startPostgres();
}, 120_000);
afterAll(() => server?.stop());

describe('postgres publisher conformance', () => {
  for (const check of publisherConformance(plugin, {
    packageJson: new URL('../package.json', import.meta.url),
    // Getters: the server's URL exists only once beforeAll has started it.
    get validBlocks() {
      return [{ url: server?.url ?? 'postgres://postgres@127.0.0.1:5432/postgres', ssl: false, schema: 'conformance' }, {}];
    },
    invalidBlocks: [{ schema: 'Robert"); DROP TABLE x;--' }, { connectTimeout: 0 }, { ssl: { mode: 'sometimes' } }],
    // Nothing listens on port 1: the connection is refused.
    failingBlock: { url: 'postgres://postgres@127.0.0.1:1/postgres', ssl: false, connectTimeout: 2 },
    verify: ({ count, samples, location }) => {
      expect(count).toBe(samples.length);
      expect(location).toMatch(/schema conformance/);
    },
  }))
    it(check.name, check.run, 60_000);
});
