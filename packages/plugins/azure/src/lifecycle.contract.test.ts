// Contract tests of error mapping, fallback zones, teardown and cleanup: the real
// SDKs against the local Resource Manager stand-in (test-support/fake-arm.ts).
import { CapacityError, isRetryable, type LedgerResource, QuotaError } from '@netbench/plugin-api';
import { closedPort } from '@netbench/plugin-api/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, harness, RUN_ID, requests, SUBSCRIPTION } from './test-support/harness.js';

const RG = `nb-${RUN_ID}`;
const G = `/subscriptions/${SUBSCRIPTION}/resourceGroups/${RG}`;
const VM = (name: string) => `${G}/providers/Microsoft.Compute/virtualMachines/${RG}-${name}`;

let h: Harness;
beforeEach(async () => {
  h = await harness();
});
afterEach(async () => {
  await h.close();
});

async function provisionUnreachable(blocks: Record<string, Record<string, unknown>>) {
  const plugin = h.plugin({ sshPort: await closedPort() });
  const error = await plugin.provision(requests(blocks), h.ctx()).then(
    () => undefined,
    (e: unknown) => e,
  );
  return { plugin, error };
}

async function teardownAll(plugin: ReturnType<Harness['plugin']>, resources: readonly LedgerResource[] = h.ledger.pending()) {
  for (const resource of resources) await plugin.teardown(resource, h.ctx());
}

describe('azure error mapping', () => {
  it('tries the fallback zone after AllocationFailed, deleting the failed VM first', async () => {
    h.fake.faults.push({
      method: 'PUT',
      path: /\/virtualMachines\//,
      operationError: { code: 'ZonalAllocationFailed', message: 'Allocation failed. We do not have sufficient capacity for the requested VM size in this zone.' },
    });
    const { plugin, error } = await provisionUnreachable({ vm: { zone: 'eastus-1', fallbackZones: ['eastus-2'], hostKeys: 'tofu' } });
    expect(String(error)).toMatch(/unreachable|ECONNREFUSED/);
    const vmCalls = h.fake.calls().filter((c) => c.includes('/virtualMachines/'));
    // The failed operation ends the first PUT (no final GET); the delete is polled to its end; the second PUT succeeds.
    expect(vmCalls).toEqual([`PUT ${VM('vm')}`, `DELETE ${VM('vm')}`, `PUT ${VM('vm')}`, `GET ${VM('vm')}`]);
    const puts = h.fake.requests.filter((r) => r.method === 'PUT' && r.path === VM('vm')).map((r) => (r.body as { zones: string[] }).zones);
    expect(puts).toEqual([['1'], ['2']]);
    expect(h.warnings.join('\n')).toMatch(/eastus-1 has no capacity for Standard_D2s_v5 .* trying eastus-2/);

    // Provisioned but unreachable: tearing the ledger down deletes the resource group, and everything in it.
    await teardownAll(plugin);
    expect(h.fake.resources.size).toBe(0);
    expect(
      h.fake
        .calls()
        .filter((c) => c.startsWith('DELETE '))
        .at(-1),
    ).toBe(`DELETE /subscriptions/${SUBSCRIPTION}/resourcegroups/${RG}`);
  });

  it('reports SkuNotAvailable as a retryable CapacityError when no fallback zone is left', async () => {
    h.fake.faults.push({
      method: 'PUT',
      path: /\/virtualMachines\//,
      http: {
        status: 409,
        code: 'SkuNotAvailable',
        message:
          "The requested size for resource '/subscriptions/x/virtualMachines/vm' is currently not available in location 'eastus' zones '1' for subscription 'x'. Please try another size or deploy to a different location or zones.",
      },
    });
    const { error } = await provisionUnreachable({ vm: { zone: 'eastus-1' } });
    expect(error).toBeInstanceOf(CapacityError);
    expect(isRetryable(error)).toBe(true);
  });

  it('reports a core quota refusal (OperationNotAllowed) as QuotaError, with no fallback', async () => {
    h.fake.faults.push({
      method: 'PUT',
      path: /\/virtualMachines\//,
      http: {
        status: 409,
        code: 'OperationNotAllowed',
        message:
          'Operation could not be completed as it results in exceeding approved standardDSv5Family Cores quota. Additional details - Deployment Model: Resource Manager, Location: eastus, Current Limit: 10, Current Usage: 8, Additional Required: 4, (Minimum) New Limit Required: 12.',
      },
    });
    const { error } = await provisionUnreachable({ vm: { zone: 'eastus-1', fallbackZones: ['eastus-2'] } });
    expect(error).toBeInstanceOf(QuotaError);
    expect((error as Error).message).toContain('standardDSv5Family Cores quota');
    expect(h.fake.calls().filter((c) => c.startsWith('PUT') && c.includes('/virtualMachines/'))).toHaveLength(1);
  });
});

describe('azure teardown', () => {
  it('deletes the resource group (202 + Location polling), the rest going with it; a second pass finds it gone (404)', async () => {
    const { plugin } = await provisionUnreachable({ a: { zone: 'eastus', hostKeys: 'tofu' }, b: { zone: 'eastus', hostKeys: 'tofu' } });
    const pending = h.ledger.pending();
    expect(pending.at(-1)!.type).toBe('azure-resource-group');
    expect(pending.slice(0, -1).every((r) => r.data?.['inRunGroup'] === true)).toBe(true);
    const before = h.fake.requests.length;
    await teardownAll(plugin, pending);
    const calls = h.fake.requests.slice(before);
    expect(calls[0]).toMatchObject({
      method: 'DELETE',
      path: `/subscriptions/${SUBSCRIPTION}/resourcegroups/${RG}`,
      query: { forceDeletionTypes: 'Microsoft.Compute/virtualMachines' },
    });
    expect(calls.slice(1).every((r) => r.path.startsWith('/operations/') && r.query['location'] === '1')).toBe(true);
    expect(h.fake.resources.size).toBe(0);

    const again = h.fake.requests.length;
    await teardownAll(plugin, pending);
    expect(h.fake.requests.slice(again).map((r) => r.method)).toEqual(['DELETE']);
  });

  it('works from the ledger entry alone, in a plugin that provisioned nothing', async () => {
    await provisionUnreachable({ a: { zone: 'westus2', hostKeys: 'tofu' } });
    const entries = JSON.parse(JSON.stringify(h.ledger.pending())) as LedgerResource[];
    await teardownAll(h.plugin(), entries);
    expect(h.fake.resources.size).toBe(0);
  });
});

describe('azure cleanup', () => {
  it('finds resource groups by their run-id tag, spares other runs and young ones, deletes the rest', async () => {
    await provisionUnreachable({ a: { zone: 'eastus', hostKeys: 'tofu' } });
    const other = `/subscriptions/${SUBSCRIPTION}/resourceGroups/nb-20261121-000000-zzzzzz`;
    h.fake.resources.set(other, {
      id: other,
      name: 'nb-20261121-000000-zzzzzz',
      type: 'Microsoft.Resources/resourceGroups',
      location: 'eastus',
      tags: { 'netbench-run': '20261121-000000-zzzzzz', 'netbench-created': '2026-11-21T00:00:00.000Z' },
      properties: { provisioningState: 'Succeeded' },
    });
    const mine = `/subscriptions/${SUBSCRIPTION}/resourceGroups/production`;
    h.fake.resources.set(mine, { id: mine, name: 'production', type: 'Microsoft.Resources/resourceGroups', location: 'eastus', tags: {}, properties: {} });
    const plugin = h.plugin();

    const old = await plugin.cleanup!({ olderThanMs: 3_600_000, dryRun: true }, h.ctx());
    expect(old.found.map((r) => r.id)).toEqual([other]);
    const live = await plugin.cleanup!({ dryRun: true, excludeRunIds: [RUN_ID, '20261121-000000-zzzzzz'] }, h.ctx());
    expect(live.found).toEqual([]);
    // Runs alive on the machine that sweeps: their groups are reported as spared, with their run id.
    expect(live.spared?.map((r) => r.data?.['runId']).sort()).toEqual(['20261121-000000-zzzzzz', RUN_ID].sort());

    const report = await plugin.cleanup!({ runId: RUN_ID }, h.ctx());
    expect(report).toEqual({
      found: [{ type: 'azure-resource-group', id: `/subscriptions/${SUBSCRIPTION}/resourceGroups/${RG}`, data: { location: 'eastus' } }],
      failed: [],
      spared: [],
    });
    expect([...h.fake.resources.keys()].sort()).toEqual([other, mine].sort());
    expect(h.fake.requests.find((r) => r.method === 'GET' && r.path === `/subscriptions/${SUBSCRIPTION}/resourcegroups`)!.query['$filter']).toBe("tagName eq 'netbench-run'");
  });
});

describe('azure preflight', () => {
  it("checks the location's vCPU quotas (total and the size family) before anything is created", async () => {
    h.fake.usages = { cores: [90, 100], standardDSv5Family: [20, 24] };
    const plugin = h.plugin();
    const hosts = requests({ a: { zone: 'eastus-1', machineType: 'Standard_D4s_v5' }, b: { zone: 'eastus-2', machineType: 'Standard_D4s_v5' } });
    const error = await plugin.preflight!(hosts, h.ctx()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QuotaError);
    expect((error as Error).message).toMatch(/standardDSv5Family in eastus: the run needs 8 vCPUs, 4 of 24 free/);
    expect(h.fake.calls()).toEqual([`GET /subscriptions/${SUBSCRIPTION}/providers/Microsoft.Compute/locations/eastus/usages`]);
    h.fake.usages = { cores: [0, 100], standardDSv5Family: [0, 24] };
    await expect(plugin.preflight!(hosts, h.ctx())).resolves.toBeUndefined();
  });
});

describe('azure with an existing subnet', () => {
  it("creates no VNet, joins the given subnet, and still guards the hosts with the run's security group", async () => {
    await provisionUnreachable({ a: { zone: 'eastus', vnet: { resourceGroup: 'net-rg', name: 'bench', subnet: 'default' }, hostKeys: 'tofu' } });
    const puts = h.fake.requests.filter((r) => r.method === 'PUT');
    expect(puts.some((r) => r.path.includes('/virtualNetworks/'))).toBe(false);
    const nic = puts.find((r) => r.path.includes('/networkInterfaces/'))!.body as { properties: { ipConfigurations: { properties: { subnet: { id: string } } }[] } };
    expect(nic.properties.ipConfigurations[0]!.properties.subnet.id).toBe(
      `/subscriptions/${SUBSCRIPTION}/resourceGroups/net-rg/providers/Microsoft.Network/virtualNetworks/bench/subnets/default`,
    );
    const nsg = puts.find((r) => r.path.includes('/networkSecurityGroups/'))!.body as { properties: { securityRules: { name: string }[] } };
    expect(nsg.properties.securityRules.map((r) => r.name)).toEqual(['netbench-ssh', 'netbench-run-hosts', 'netbench-run-external', 'netbench-deny-vnet']);
  });
});

describe('azure doctor', () => {
  it('makes no call offline; online it names the identity, proves access and reports quota headroom', async () => {
    const claims = Buffer.from(JSON.stringify({ upn: 'bench@example.com', tid: 'tenant-1' })).toString('base64url');
    const jwt = `e30.${claims}.sig`;
    const plugin = h.plugin({ credential: { getToken: async () => ({ token: jwt, expiresOnTimestamp: Date.now() + 3_600_000 }) } });
    h.fake.acceptToken(jwt);
    expect((await plugin.diagnose!(h.ctx(), { online: false })).map((c) => c.name)).toContain('credentials');
    expect(h.fake.requests).toEqual([]);

    h.fake.usages = { cores: [0, 10], standardFSv2Family: [8, 10] };
    const online = await plugin.diagnose!(h.ctx(), { online: true, requests: requests({ a: { zone: 'westus2', machineType: 'Standard_F4s_v2' } }) });
    const byName = Object.fromEntries(online.map((c) => [c.name, c]));
    expect(byName['identity']!.detail).toBe('bench@example.com (tenant tenant-1)');
    expect(byName['api access']!.ok).toBe(true);
    expect(byName['quota cores westus2']!.ok).toBe(true);
    expect(byName['quota standardFSv2Family westus2']).toMatchObject({ ok: false, detail: 'standardFSv2Family in westus2: the run needs 4 vCPUs, 2 of 10 free' });
  });
});
