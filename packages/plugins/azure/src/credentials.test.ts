import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { credentialSource, diagnoseCredentials, resolveSubscription } from './credentials.js';

const VARS = [
  'AZURE_CONFIG_DIR',
  'AZURE_SUBSCRIPTION_ID',
  'AZURE_CLIENT_ID',
  'AZURE_CLIENT_SECRET',
  'AZURE_TENANT_ID',
  'AZURE_FEDERATED_TOKEN_FILE',
  'AZURE_CLIENT_CERTIFICATE_PATH',
  'NETBENCH_AZURE_ACCESS_TOKEN',
  'NETBENCH_AZURE_ENDPOINT',
];

describe('azure credentials and subscription, found without the network', () => {
  let dir: string;
  const saved: Record<string, string | undefined> = {};
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'nbt-azure-cred-'));
    for (const v of VARS) {
      saved[v] = process.env[v];
      delete process.env[v];
    }
    process.env['AZURE_CONFIG_DIR'] = dir;
  });
  afterEach(async () => {
    for (const v of VARS) {
      if (saved[v] === undefined) delete process.env[v];
      else process.env[v] = saved[v];
    }
    await rm(dir, { recursive: true, force: true });
  });

  it('says nothing was found, with the fix', () => {
    expect(diagnoseCredentials().map((c) => [c.name, c.ok])).toEqual([
      ['credentials', false],
      ['subscription', false],
    ]);
  });

  it('reads the Azure CLI profile (with its byte order mark): user and default subscription', async () => {
    await mkdir(dir, { recursive: true });
    await writeFile(
      join(dir, 'azureProfile.json'),
      `\uFEFF${JSON.stringify({
        installationId: 'x',
        subscriptions: [
          { id: '11111111-1111-1111-1111-111111111111', name: 'dev', isDefault: false, user: { name: 'a@example.com', type: 'user' } },
          { id: '22222222-2222-2222-2222-222222222222', name: 'bench', isDefault: true, tenantId: 't', user: { name: 'me@example.com', type: 'user' } },
        ],
      })}`,
    );
    expect(resolveSubscription()).toBe('22222222-2222-2222-2222-222222222222');
    expect(credentialSource()).toEqual({ source: 'Azure CLI login', identity: 'me@example.com (user)' });
    process.env['AZURE_SUBSCRIPTION_ID'] = '33333333-3333-3333-3333-333333333333';
    expect(resolveSubscription()).toBe('33333333-3333-3333-3333-333333333333');
    expect(resolveSubscription('44444444-4444-4444-4444-444444444444')).toBe('44444444-4444-4444-4444-444444444444');
  });

  it('prefers a service principal or workload identity from the environment', () => {
    process.env['AZURE_CLIENT_ID'] = 'app-id';
    process.env['AZURE_CLIENT_SECRET'] = 's';
    expect(credentialSource()).toEqual({ source: 'service principal (AZURE_CLIENT_ID)', identity: 'app-id' });
    process.env['AZURE_FEDERATED_TOKEN_FILE'] = '/var/run/secrets/azure/tokens/azure-identity-token';
    expect(credentialSource()!.source).toMatch(/workload identity/);
  });
});
