import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSpec, staticRegistry } from '@netbench/core';
import type { LedgerEntry } from '@netbench/plugin-api';
import ping from '@netbench/plugin-ping';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAzurePlugin } from '../packages/plugins/azure/src/azure-plugin.js';
import { StaticTokenCredential } from '../packages/plugins/azure/src/clients.js';
import { FakeArm } from '../packages/plugins/azure/src/test-support/fake-arm.js';
import { FAST, SUBSCRIPTION } from '../packages/plugins/azure/src/test-support/harness.js';
import { closedPort } from '../packages/plugins/azure/src/test-support/sshd.js';

// The engine end to end with the Azure plugin against the local Resource
// Manager stand-in: VMs that come up but cannot be reached over SSH (a closed
// loopback port) must end with the run's resource group deleted.
describe('azure: provisioned but unreachable', () => {
  const fake = new FakeArm();
  let home: string;
  beforeAll(() => {
    home = mkdtempSync(join(tmpdir(), 'nbt-azure-e2e-'));
  });
  afterAll(async () => {
    await fake.stop();
    rmSync(home, { recursive: true, force: true });
  });

  it('tears down every resource it made and exits 5', async () => {
    const endpoint = await fake.start();
    const azure = createAzurePlugin({
      endpoint,
      ca: fake.ca,
      credential: new StaticTokenCredential('test-token'),
      subscription: SUBSCRIPTION,
      timing: FAST,
      sshPort: await closedPort(),
    });
    const outcome = await runSpec({
      file: 'tests/scenarios/azure-contract/spec.yaml',
      registry: staticRegistry([azure, ping]),
      runsDir: join(home, 'runs'),
      sets: [`hosts.client.subscription=${SUBSCRIPTION}`, `hosts.server.subscription=${SUBSCRIPTION}`],
    });
    expect(outcome.exitCode).toBe(5);
    const runId = outcome.record.runId;
    const ledger = readFileSync(join(home, 'runs', runId, 'ledger.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as LedgerEntry);
    const resources = new Set(ledger.map((e) => `${e.resource.type} ${e.resource.id}`));
    // group, 2 public IPs, 2 VNets, 2 ASGs, 2 peerings, 2 NSGs, 2 NICs, 2 VMs
    expect(resources.size).toBe(15);
    for (const id of resources) {
      const lines = ledger.filter((e) => `${e.resource.type} ${e.resource.id}` === id);
      expect(lines[0]!.phase, id).toBe('intent');
      expect(lines.at(-1)!.phase, id).toBe('deleted');
      expect(id).toContain(`nb-${runId}`);
    }
    expect(fake.resources.size).toBe(0);
  });
});
