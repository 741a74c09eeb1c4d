import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSpec, staticRegistry } from '@netbench/core';
import type { LedgerEntry } from '@netbench/plugin-api';
import ping from '@netbench/plugin-ping';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGcpPlugin } from '../packages/plugins/gcp/src/gcp-plugin.js';
import { FakeGce } from '../packages/plugins/gcp/src/test-support/fake-gce.js';
import { FAST, PROJECT, testAuth } from '../packages/plugins/gcp/src/test-support/harness.js';
import { closedPort } from '../packages/plugins/gcp/src/test-support/sshd.js';

// The engine end to end with the GCP plugin against the local Compute REST
// stand-in: a run whose instances come up but cannot be reached over SSH
// (a closed loopback port) must end with everything deleted, from the ledger.
describe('gcp: provisioned but unreachable', () => {
  const fake = new FakeGce();
  let home: string;
  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'nbt-gcp-e2e-'));
  });
  afterAll(async () => {
    await fake.stop();
    rmSync(home, { recursive: true, force: true });
  });

  it('tears down every resource it made and exits 5', async () => {
    const endpoint = await fake.start();
    const gcp = createGcpPlugin({ endpoint, authClient: testAuth(), project: PROJECT, timing: FAST, sshPort: await closedPort() });
    const outcome = await runSpec({
      file: 'tests/scenarios/gcp-contract/spec.yaml',
      registry: staticRegistry([gcp, ping]),
      runsDir: join(home, 'runs'),
      sets: [`hosts.client.project=${PROJECT}`, `hosts.server.project=${PROJECT}`],
    });
    expect(outcome.exitCode).toBe(5);
    const runId = outcome.record.runId;
    const ledger = readFileSync(join(home, 'runs', runId, 'ledger.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as LedgerEntry);
    const resources = new Set(ledger.map((e) => `${e.resource.type} ${e.resource.id}`));
    // network, 1 subnet, 3 firewall rules, 2 instances
    expect(resources.size).toBe(7);
    for (const id of resources) {
      const lines = ledger.filter((e) => `${e.resource.type} ${e.resource.id}` === id);
      expect(lines[0]!.phase, id).toBe('intent');
      expect(lines.at(-1)!.phase, id).toBe('deleted');
      expect(id).toContain(`nb-${runId}`);
    }
    expect([...fake.resources.keys()]).toEqual([]);
    const calls = fake.requests.length;
    console.log(`gcp e2e: ${calls} API calls (provision + teardown of 2 hosts)`);
  });
});
