import { cloudConformance } from '@netbench/plugin-api/testing';
import { afterAll, beforeAll, describe, it } from 'vitest';
import plugin from './index.js';
import { FakeGce } from './test-support/fake-gce.js';
import { PROJECT } from './test-support/harness.js';

// The default plugin (and the fresh teardown process, which inherits the
// environment) talks to the local Compute REST stand-in through the
// documented overrides: NETBENCH_GCP_ENDPOINT and a static token.
const fake = new FakeGce();
const gone = (path: string) => `projects/${PROJECT}/${path}`;

describe('gcp cloud conformance', () => {
  beforeAll(async () => {
    process.env['NETBENCH_GCP_ENDPOINT'] = await fake.start();
    process.env['NETBENCH_GCP_ACCESS_TOKEN'] = 'test-token';
    process.env['GOOGLE_CLOUD_PROJECT'] = PROJECT;
  });
  afterAll(async () => {
    await fake.stop();
    for (const v of ['NETBENCH_GCP_ENDPOINT', 'NETBENCH_GCP_ACCESS_TOKEN', 'GOOGLE_CLOUD_PROJECT']) delete process.env[v];
  });

  for (const check of cloudConformance(plugin, {
    packageJson: new URL('../package.json', import.meta.url),
    module: new URL('../dist/index.js', import.meta.url),
    validBlocks: [
      { zone: 'us-central1-a' },
      { zone: 'us-west1-b', machineType: 'c2-standard-16', placement: 'compact', networkTier: 'standard', fallbackZones: ['us-west1-c'] },
      { zone: 'europe-west4-a', network: 'bench-vpc', subnet: 'bench-europe', externalIp: false, sshFrom: ['10.0.0.0/8'] },
    ],
    invalidBlocks: [
      {},
      { zone: 'us-central1' },
      { zone: 'us-central1-a', networkTier: 'gold' },
      { zone: 'us-central1-a', subnet: 'x' },
      { zone: 'us-central1-a', fallbackZones: ['europe-west1-b'] },
      { zone: 'us-central1-a', instanceType: 'n1-standard-1' },
    ],
    goneResources: [
      { type: 'gce-instance', id: gone('zones/us-central1-a/instances/nb-20000101-000000-gone00-vm') },
      { type: 'gce-firewall', id: gone('global/firewalls/nb-20000101-000000-gone00-ssh') },
      { type: 'gce-resource-policy', id: gone('regions/us-central1/resourcePolicies/nb-20000101-000000-gone00-compact-us-central1-a') },
      { type: 'gce-subnetwork', id: gone('regions/us-central1/subnetworks/nb-20000101-000000-gone00-us-central1') },
      { type: 'gce-network', id: gone('global/networks/nb-20000101-000000-gone00') },
    ],
  }))
    it(check.name, check.run, 120_000);
});
