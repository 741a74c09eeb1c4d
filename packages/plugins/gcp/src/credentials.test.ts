import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { adcInfo, diagnoseCredentials, resolveProject } from './credentials.js';

const VARS = [
  'GOOGLE_APPLICATION_CREDENTIALS',
  'CLOUDSDK_CONFIG',
  'GOOGLE_CLOUD_PROJECT',
  'GCLOUD_PROJECT',
  'CLOUDSDK_CORE_PROJECT',
  'NETBENCH_GCP_ACCESS_TOKEN',
  'NETBENCH_GCP_ENDPOINT',
];

describe('gcp credentials and project, found without the network', () => {
  let dir: string;
  const saved: Record<string, string | undefined> = {};
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'nbt-gcp-adc-'));
    for (const v of VARS) {
      saved[v] = process.env[v];
      delete process.env[v];
    }
    process.env['CLOUDSDK_CONFIG'] = join(dir, 'gcloud');
  });
  afterEach(async () => {
    for (const v of VARS) {
      if (saved[v] === undefined) delete process.env[v];
      else process.env[v] = saved[v];
    }
    await rm(dir, { recursive: true, force: true });
  });

  it('reports nothing found as a warning with the fix', () => {
    const checks = diagnoseCredentials();
    expect(checks.map((c) => [c.name, c.ok])).toEqual([
      ['credentials', false],
      ['project', false],
    ]);
    expect(checks[0]!.fix).toMatch(/application-default login/);
  });

  it('names the service account of GOOGLE_APPLICATION_CREDENTIALS and its project', async () => {
    const file = join(dir, 'sa.json');
    await writeFile(file, JSON.stringify({ type: 'service_account', project_id: 'bench-proj', client_email: 'nb@bench-proj.iam.gserviceaccount.com', private_key: 'x' }));
    process.env['GOOGLE_APPLICATION_CREDENTIALS'] = file;
    expect(adcInfo()).toMatchObject({ source: 'env-file', type: 'service_account', identity: 'nb@bench-proj.iam.gserviceaccount.com', project: 'bench-proj' });
    expect(diagnoseCredentials().every((c) => c.ok)).toBe(true);
  });

  it("reads gcloud's user ADC and active configuration; the spec and environment win", async () => {
    await mkdir(join(dir, 'gcloud', 'configurations'), { recursive: true });
    await writeFile(
      join(dir, 'gcloud', 'application_default_credentials.json'),
      JSON.stringify({ type: 'authorized_user', client_id: '7645.apps.googleusercontent.com', refresh_token: 'x' }),
    );
    await writeFile(join(dir, 'gcloud', 'active_config'), 'work\n');
    await writeFile(join(dir, 'gcloud', 'configurations', 'config_work'), '[compute]\nzone = us-central1-a\n[core]\naccount = me@example.com\nproject = from-gcloud\n');
    expect(adcInfo()).toMatchObject({ source: 'gcloud-adc', type: 'authorized_user' });
    expect(resolveProject()).toBe('from-gcloud');
    process.env['GOOGLE_CLOUD_PROJECT'] = 'from-env';
    expect(resolveProject()).toBe('from-env');
    expect(resolveProject('from-spec')).toBe('from-spec');
  });
});
