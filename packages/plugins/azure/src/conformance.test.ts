import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cloudConformance } from '@netbench/plugin-api/testing';
import { afterAll, beforeAll, describe, it } from 'vitest';
import plugin from './index.js';
import { FakeArm } from './test-support/fake-arm.js';
import { SUBSCRIPTION } from './test-support/harness.js';

// The default plugin (and the fresh teardown process, which inherits the
// environment) talks to the local Resource Manager stand-in through the
// documented overrides: NETBENCH_AZURE_ENDPOINT, _ACCESS_TOKEN and _CA_FILE.
const fake = new FakeArm();
const dir = mkdtempSync(join(tmpdir(), 'nbt-azure-conf-'));
const VARS = ['NETBENCH_AZURE_ENDPOINT', 'NETBENCH_AZURE_ACCESS_TOKEN', 'NETBENCH_AZURE_CA_FILE', 'AZURE_SUBSCRIPTION_ID'];
const group = `/subscriptions/${SUBSCRIPTION}/resourceGroups/nb-20000101-000000-gone00`;

describe('azure cloud conformance', () => {
  beforeAll(async () => {
    writeFileSync(join(dir, 'ca.pem'), fake.ca);
    process.env['NETBENCH_AZURE_ENDPOINT'] = await fake.start();
    process.env['NETBENCH_AZURE_ACCESS_TOKEN'] = 'test-token';
    process.env['NETBENCH_AZURE_CA_FILE'] = join(dir, 'ca.pem');
    process.env['AZURE_SUBSCRIPTION_ID'] = SUBSCRIPTION;
  });
  afterAll(async () => {
    await fake.stop();
    for (const v of VARS) delete process.env[v];
    rmSync(dir, { recursive: true, force: true });
  });

  for (const check of cloudConformance(plugin, {
    packageJson: new URL('../package.json', import.meta.url),
    module: new URL('../dist/index.js', import.meta.url),
    validBlocks: [
      { zone: 'eastus' },
      { zone: 'eastus2-3', machineType: 'Standard_F8s_v2', placement: 'proximity', fallbackZones: ['eastus2-1'], acceleratedNetworking: false },
      { zone: 'westeurope', vnet: { resourceGroup: 'net', name: 'bench', subnet: 'default' }, publicIp: false, sshFrom: ['10.0.0.0/8'] },
    ],
    invalidBlocks: [
      {},
      { zone: 'East US' },
      { zone: 'eastus-4' },
      { zone: 'eastus-1', fallbackZones: ['westus2-1'] },
      { zone: 'eastus', image: 'ubuntu' },
      { zone: 'eastus', vnet: { name: 'x' } },
      { zone: 'eastus', size: 'Standard_D2s_v5' },
    ],
    goneResources: [
      { type: 'azure-resource-group', id: group },
      { type: 'azure-vm', id: `${group}/providers/Microsoft.Compute/virtualMachines/nb-20000101-000000-gone00-vm`, data: { inRunGroup: true } },
      { type: 'azure-nsg', id: `${group}/providers/Microsoft.Network/networkSecurityGroups/nb-20000101-000000-gone00-eastus-nsg`, data: { inRunGroup: true } },
    ],
  }))
    it(check.name, check.run, 120_000);
});
