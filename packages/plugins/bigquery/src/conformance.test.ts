import { isPlugin } from '@netbench/plugin-api';
import { publisherConformance } from '@netbench/plugin-api/testing';
import { OAuth2Client } from 'google-auth-library';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import defaultPlugin, { bigqueryPlugin, PKB_SCHEMA_FIELDS } from './index.js';
import { FakeBigQuery, googleError } from './test-support/fake-bigquery.js';

// BigQuery has no emulator: a local HTTP stand-in answers the REST calls the
// real SDK makes, and the plugin is built with an auth client holding a fixed
// token (the factory's documented seam), so nothing leaves loopback.
const PROJECT = 'nb-conformance';
const auth = new OAuth2Client();
auth.setCredentials({ access_token: 'conformance-token', expiry_date: Date.now() + 3_600_000 });
const fake = new FakeBigQuery((req) => {
  if (req.method === 'GET') return { status: 200, body: { kind: 'bigquery#table', schema: { fields: PKB_SCHEMA_FIELDS } } };
  if (req.path.endsWith('/insertAll')) return { status: 200, body: { kind: 'bigquery#tableDataInsertAllResponse' } };
  return { status: 200, body: {} };
});
// A BigQuery that refuses everything, for the failure-isolation check.
const refusing = new FakeBigQuery(() => googleError(403, 'accessDenied', 'Access Denied: conformance'));
let endpoint = '';
let refusingEndpoint = '';
beforeAll(async () => {
  endpoint = await fake.start();
  refusingEndpoint = await refusing.start();
});
afterAll(() => Promise.all([fake.stop(), refusing.stop()]));

describe('bigquery publisher conformance', () => {
  it('default-exports the same plugin the factory makes', () => {
    expect(isPlugin(defaultPlugin)).toBe(true);
    expect(defaultPlugin.name).toBe(bigqueryPlugin().name);
  });

  for (const check of publisherConformance(bigqueryPlugin({ authClient: auth }), {
    packageJson: new URL('../package.json', import.meta.url),
    get validBlocks() {
      return [{ projectId: PROJECT, dataset: 'netbench', table: 'samples', apiEndpoint: endpoint, maxRetries: 0 }];
    },
    invalidBlocks: [{ dataset: 'net bench', table: 't' }, { dataset: 'd' }, { dataset: 'd', table: 't', apiEndpoint: 'not a url' }],
    get failingBlock() {
      return { projectId: PROJECT, dataset: 'netbench', table: 'samples', apiEndpoint: refusingEndpoint, maxRetries: 0 };
    },
    verify: ({ count, samples, location }) => {
      expect(count).toBe(samples.length);
      expect(location).toBe(`bigquery:${PROJECT}:netbench.samples`);
      expect(fake.requests.some((r) => r.path.endsWith('/insertAll'))).toBe(true);
    },
  }))
    it(check.name, check.run, 60_000);
});
