// Contract tests of error mapping, fallback zones, teardown and cleanup: the real
// SDK against the local Compute REST stand-in (test-support/fake-gce.ts).
import { CapacityError, isRetryable, type LedgerResource, QuotaError } from '@netbench/plugin-api';
import { closedPort } from '@netbench/plugin-api/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, harness, PROJECT, RUN_ID, requests } from './test-support/harness.js';

const P = `/compute/v1/projects/${PROJECT}`;
const TAG = `nb-${RUN_ID}`;
const CAPACITY = {
  code: 'ZONE_RESOURCE_POOL_EXHAUSTED',
  message: `The zone 'projects/${PROJECT}/zones/us-central1-a' does not have enough resources available to fulfill the request.  Try a different zone, or try again later.`,
};

let h: Harness;
beforeEach(async () => {
  h = await harness();
});
afterEach(async () => {
  await h.close();
});

/** Provision with SSH pointed at a closed port: everything is created, then the hosts cannot be reached. */
async function provisionUnreachable(blocks: Record<string, Record<string, unknown>>) {
  const plugin = h.plugin({ sshPort: await closedPort() });
  const error = await plugin.provision(requests(blocks), h.ctx()).then(
    () => undefined,
    (e: unknown) => e,
  );
  return { plugin, error };
}

/** Tear down what the ledger holds, newest first, as the engine does. */
async function teardownAll(plugin: ReturnType<Harness['plugin']>, resources: readonly LedgerResource[] = h.ledger.pending()) {
  for (const resource of resources) await plugin.teardown(resource, h.ctx());
}

describe('gcp error mapping', () => {
  it('tries the fallback zone when the zone is out of capacity, and ledgers both attempts', async () => {
    h.fake.faults.push({ method: 'POST', path: /\/zones\/us-central1-a\/instances$/, operationErrors: [CAPACITY] });
    const { plugin, error } = await provisionUnreachable({ vm: { zone: 'us-central1-a', fallbackZones: ['us-central1-b'], hostKeys: 'tofu' } });
    expect(String(error)).toMatch(/vm|127\.0\.0\.1/); // SSH could not connect
    expect(h.fake.ofType('instances')).toEqual([`projects/${PROJECT}/zones/us-central1-b/instances/${TAG}-vm`]);
    const attempts = h.ledger.entries.filter((e) => e.resource.type === 'gce-instance').map((e) => `${e.phase} ${e.resource.id.split('/')[3]}`);
    expect(attempts).toEqual(['intent us-central1-a', 'failed us-central1-a', 'intent us-central1-b', 'created us-central1-b']);
    expect(h.warnings.join('\n')).toMatch(/us-central1-a has no capacity .* trying us-central1-b/);

    // Provisioned but unreachable: teardown from the ledger leaves nothing, the never-created zone-a instance included (404 = gone).
    await teardownAll(plugin);
    expect([...h.fake.resources.keys()]).toEqual([]);
    const deletes = h.fake.calls().filter((c) => c.startsWith('DELETE'));
    expect(deletes).toEqual([
      `DELETE ${P}/global/firewalls/${TAG}-external`,
      `DELETE ${P}/zones/us-central1-b/instances/${TAG}-vm`,
      `DELETE ${P}/zones/us-central1-a/instances/${TAG}-vm`,
      `DELETE ${P}/global/firewalls/${TAG}-internal`,
      `DELETE ${P}/global/firewalls/${TAG}-ssh`,
      `DELETE ${P}/regions/us-central1/subnetworks/${TAG}-us-central1`,
      `DELETE ${P}/global/networks/${TAG}`,
    ]);
  });

  it('reports capacity as a retryable CapacityError when no fallback zone is left', async () => {
    h.fake.faults.push({ method: 'POST', path: /\/instances$/, operationErrors: [{ ...CAPACITY, code: 'ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS' }] });
    const { error } = await provisionUnreachable({ vm: { zone: 'us-central1-a' } });
    expect(error).toBeInstanceOf(CapacityError);
    expect(isRetryable(error)).toBe(true);
    expect((error as Error).message).toMatch(/n2-standard-2 instance .* in us-central1-a: ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS/);
  });

  it('reports a quota refusal of the insert call (HTTP 403 quotaExceeded) as QuotaError', async () => {
    h.fake.faults.push({
      method: 'POST',
      path: /\/instances$/,
      http: { status: 403, message: "Quota 'CPUS' exceeded.  Limit: 24.0 in region us-central1.", reason: 'quotaExceeded' },
    });
    const { error } = await provisionUnreachable({ vm: { zone: 'us-central1-a', fallbackZones: ['us-central1-b'] } });
    expect(error).toBeInstanceOf(QuotaError);
    // Quota is regional: no fallback zone is tried for it.
    expect(h.fake.calls().filter((c) => c.includes('/instances'))).toEqual([`POST ${P}/zones/us-central1-a/instances`]);
  });

  it('reports a quota error inside the finished operation (QUOTA_EXCEEDED) as QuotaError', async () => {
    h.fake.faults.push({
      method: 'POST',
      path: /\/instances$/,
      operationErrors: [{ code: 'QUOTA_EXCEEDED', message: "Quota 'N2_CPUS' exceeded.  Limit: 8.0 in region us-central1." }],
    });
    const { error } = await provisionUnreachable({ vm: { zone: 'us-central1-a' } });
    expect(error).toBeInstanceOf(QuotaError);
    expect((error as Error).message).toContain("Quota 'N2_CPUS' exceeded");
  });
});

describe('gcp teardown', () => {
  it('is idempotent: a second pass finds everything gone (404) and succeeds without waiting', async () => {
    const { plugin } = await provisionUnreachable({ a: { zone: 'us-central1-a', hostKeys: 'tofu' }, b: { zone: 'europe-west1-b', hostKeys: 'tofu' } });
    const pending = h.ledger.pending();
    expect(pending.map((r) => r.type)).toEqual(['gce-firewall', 'gce-instance', 'gce-instance', 'gce-firewall', 'gce-firewall', 'gce-subnetwork', 'gce-subnetwork', 'gce-network']);
    await teardownAll(plugin, pending);
    expect(h.fake.resources.size).toBe(0);
    const before = h.fake.requests.length;
    await teardownAll(plugin, pending);
    const second = h.fake.requests.slice(before);
    expect(second.map((r) => r.method)).toEqual(pending.map(() => 'DELETE'));
  });

  it('works from the ledger entry alone, in a plugin that provisioned nothing', async () => {
    const { plugin: _first } = await provisionUnreachable({ a: { zone: 'us-central1-a', hostKeys: 'tofu' } });
    const fresh = h.plugin();
    const entries = JSON.parse(JSON.stringify(h.ledger.pending())) as LedgerResource[];
    await teardownAll(fresh, entries);
    expect(h.fake.resources.size).toBe(0);
  });

  it('retries a delete refused because a dependent resource still exists', async () => {
    const { plugin } = await provisionUnreachable({ a: { zone: 'us-central1-a', hostKeys: 'tofu' } });
    const pending = h.ledger.pending();
    const subnet = pending.find((r) => r.type === 'gce-subnetwork')!;
    const instance = pending.find((r) => r.type === 'gce-instance')!;
    // The subnet first: refused while the instance uses it, then retried once the instance is gone.
    const subnetDeleted = plugin.teardown(subnet, h.ctx());
    await new Promise((r) => setTimeout(r, 60));
    await plugin.teardown(instance, h.ctx());
    await subnetDeleted;
    const subnetDeletes = h.fake.requests.filter((r) => r.method === 'DELETE' && r.path.endsWith(`/subnetworks/${TAG}-us-central1`));
    expect(subnetDeletes.length).toBeGreaterThan(1);
    expect(h.fake.ofType('subnetworks')).toEqual([]);
  });
});

describe('gcp cleanup', () => {
  it("finds a run's leftovers by label and name, spares other runs, and deletes in dependency order", async () => {
    await provisionUnreachable({ a: { zone: 'us-central1-a', hostKeys: 'tofu' } });
    // Another run's rule and a user's own network must be left alone.
    h.fake.resources.set(`projects/${PROJECT}/global/firewalls/nb-20261121-000000-zzzzzz-ssh`, {
      name: 'nb-20261121-000000-zzzzzz-ssh',
      network: 'x',
      creationTimestamp: '2026-11-21T00:00:00.000-08:00',
    });
    h.fake.resources.set(`projects/${PROJECT}/global/networks/default`, { name: 'default', creationTimestamp: '2020-01-01T00:00:00.000-08:00' });
    const plugin = h.plugin();
    const ctx = h.ctx();

    const young = await plugin.cleanup!({ olderThanMs: 3_600_000, dryRun: true }, ctx);
    expect(young.found.map((r) => r.id)).toEqual([`projects/${PROJECT}/global/firewalls/nb-20261121-000000-zzzzzz-ssh`]);
    const spared = await plugin.cleanup!({ dryRun: true, excludeRunIds: [RUN_ID, '20261121-000000-zzzzzz'] }, ctx);
    expect(spared.found).toEqual([]);
    // Runs alive on the machine that sweeps: their resources are reported as spared, with their run id.
    expect(spared.spared?.map((r) => r.id)).toContain(`projects/${PROJECT}/global/firewalls/nb-20261121-000000-zzzzzz-ssh`);
    expect(spared.spared?.every((r) => [RUN_ID, '20261121-000000-zzzzzz'].includes(String(r.data?.['runId'])))).toBe(true);

    const before = h.fake.requests.length;
    const report = await plugin.cleanup!({ runId: RUN_ID }, ctx);
    expect(report.failed).toEqual([]);
    expect(report.found.map((r) => r.type)).toEqual(['gce-instance', 'gce-firewall', 'gce-firewall', 'gce-firewall', 'gce-subnetwork', 'gce-network']);
    expect([...h.fake.resources.keys()].sort()).toEqual([`projects/${PROJECT}/global/firewalls/nb-20261121-000000-zzzzzz-ssh`, `projects/${PROJECT}/global/networks/default`]);
    const lists = h.fake.requests.slice(before).filter((r) => r.method === 'GET');
    expect(lists.find((r) => r.path === `${P}/aggregated/instances`)!.query['filter']).toBe('labels.netbench-run:*');
    expect(lists.find((r) => r.path === `${P}/global/firewalls`)!.query['filter']).toBe('name eq "nb-\\d{8}-\\d{6}-[0-9a-z]{6}.*"');
  });
});

describe('gcp preflight', () => {
  it('checks regional quotas before anything is created: a shortfall is a QuotaError naming the metric', async () => {
    h.fake.quotas = { CPUS: [24, 20], N2_CPUS: [16, 10], IN_USE_ADDRESSES: [8, 0] };
    const plugin = h.plugin();
    const hosts = requests({
      a: { zone: 'us-central1-a', machineType: 'n2-standard-4' },
      b: { zone: 'us-central1-b', machineType: 'n2-standard-4' },
      c: { zone: 'us-central1-c', machineType: 'e2-standard-2' },
    });
    const error = await plugin.preflight!(hosts, h.ctx()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QuotaError);
    expect((error as Error).message).toMatch(/N2_CPUS in us-central1: the run needs 8, 6 of 16 free/);
    // e2 has no quota of its own: its 2 vCPUs count against CPUS (4 free).
    expect((error as Error).message).not.toMatch(/CPUS in us-central1: the run needs 2/);
    expect(h.fake.calls()).toEqual([`GET ${P}/regions/us-central1`]);
    h.fake.quotas = { CPUS: [24, 0], N2_CPUS: [16, 0], IN_USE_ADDRESSES: [8, 0] };
    await expect(plugin.preflight!(hosts, h.ctx())).resolves.toBeUndefined();
  });
});

describe('gcp with an existing network (PKB --gce_network_name)', () => {
  it("creates no network or subnet, puts the run's rules and hosts in it, and tears down only what the run made", async () => {
    const { plugin } = await provisionUnreachable({ a: { zone: 'us-central1-a', network: 'bench-vpc', subnet: 'bench-us', hostKeys: 'tofu' } });
    const creates = h.fake.calls().filter((c) => c.startsWith('POST'));
    expect(creates.filter((c) => /networks$|subnetworks$/.test(c))).toEqual([]);
    const rules = h.fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/global/firewalls')).map((r) => (r.body as { network: string }).network);
    expect(new Set(rules)).toEqual(new Set([`projects/${PROJECT}/global/networks/bench-vpc`]));
    const nic = (h.fake.requests.find((r) => r.path.endsWith('/instances') && r.method === 'POST')!.body as { networkInterfaces: Record<string, string>[] }).networkInterfaces[0]!;
    expect(nic).toMatchObject({ network: `projects/${PROJECT}/global/networks/bench-vpc`, subnetwork: `projects/${PROJECT}/regions/us-central1/subnetworks/bench-us` });
    await teardownAll(plugin);
    expect(
      h.fake
        .calls()
        .filter((c) => c.startsWith('DELETE'))
        .some((c) => c.includes('bench-')),
    ).toBe(false);
  });
});

describe('gcp doctor', () => {
  it("makes no call offline; online it proves API access and reports quota headroom for the spec's hosts", async () => {
    const plugin = h.plugin();
    const offline = await plugin.diagnose!(h.ctx(), { online: false });
    expect(offline.map((c) => c.name)).toContain('credentials');
    expect(h.fake.requests).toEqual([]);

    h.fake.quotas = { CPUS: [24, 0], C2_CPUS: [8, 0], IN_USE_ADDRESSES: [8, 7] };
    const online = await plugin.diagnose!(h.ctx(), {
      online: true,
      requests: requests({ a: { zone: 'us-central1-a', machineType: 'c2-standard-8' }, b: { zone: 'us-central1-b', machineType: 'c2-standard-4' } }),
    });
    const byName = Object.fromEntries(online.map((c) => [c.name, c]));
    expect(byName['api access']!.ok).toBe(true);
    expect(byName['quota C2_CPUS us-central1']).toMatchObject({ ok: false, detail: 'C2_CPUS in us-central1: the run needs 12, 8 of 8 free' });
    expect(byName['quota IN_USE_ADDRESSES us-central1']).toMatchObject({ ok: false, detail: 'IN_USE_ADDRESSES in us-central1: the run needs 2, 1 of 8 free' });
    expect(h.fake.calls()).toEqual([`GET ${P}/regions`, `GET ${P}/regions/us-central1`]);
  });
});
