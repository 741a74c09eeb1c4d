// Contract tests of admitPeers: the real SDK against the local Compute REST
// stand-in (test-support/fake-gce.ts). They pin the firewalls.insert bodies,
// the operation waits, the ledger order and how the rules are torn down and
// found by cleanup; they do not talk to Google.

import type { PeerHost, ProvisionContext } from '@netbench/plugin-api';
import { type LedgerResource, NetbenchError, QuotaError } from '@netbench/plugin-api';
import { closedPort } from '@netbench/plugin-api/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, harness, PROJECT, RUN_ID, requests } from './test-support/harness.js';

const P = `/compute/v1/projects/${PROJECT}`;
const TAG = `nb-${RUN_ID}`;
const RULE = `projects/${PROJECT}/global/firewalls/${TAG}-peers`;
const RULE6 = `projects/${PROJECT}/global/firewalls/${TAG}-peers-v6`;

const PEERS: PeerHost[] = [
  { id: 'aws-vm', cloud: 'aws', addresses: ['203.0.113.10', '172.31.5.6'] },
  { id: 'onprem', cloud: 'static', addresses: ['2001:DB8::7', '198.51.100.20', '::ffff:203.0.113.10'] },
  { id: 'lab', cloud: 'local', addresses: ['127.0.0.1'] },
];

let h: Harness;
let infos: string[];
/** Requests the stand-in had received when each `track` began: the intent is written before the call. */
let requestsAtIntent: Map<string, number>;

beforeEach(async () => {
  h = await harness();
  infos = [];
  requestsAtIntent = new Map();
});
afterEach(async () => {
  await h.close();
});

/** The engine's context for admitPeers: this plugin's ledger lines, a logger we can read. */
function ctx(): ProvisionContext {
  const base = h.ctx();
  return {
    ...base,
    log: { ...base.log, info: (m) => infos.push(m) },
    ledger: {
      get entries() {
        return h.ledger.entries;
      },
      created: (r) => h.ledger.created(r),
      track: (r, create) => {
        if (!requestsAtIntent.has(r.id)) requestsAtIntent.set(r.id, h.fake.requests.length);
        return h.ledger.track(r, create);
      },
    },
  };
}

/** Provision one host whose SSH never answers: network, rules and instance exist and are ledgered. */
async function provisioned(block: Record<string, unknown> = {}) {
  const plugin = h.plugin({ sshPort: await closedPort() });
  await plugin.provision(requests({ a: { zone: 'us-central1-a', hostKeys: 'tofu', ...block } }), h.ctx()).catch(() => undefined);
  return plugin;
}

const since = (n: number) => h.fake.requests.slice(n);
const ruleBodies = (from: number) =>
  since(from)
    .filter((r) => r.method === 'POST' && r.path === `${P}/global/firewalls`)
    .map((r) => r.body);

describe('gcp admitPeers', () => {
  it("inserts one INGRESS rule per address family with the run's protocols, from each peer address, to the run's tag", async () => {
    const plugin = await provisioned();
    const before = h.fake.requests.length;
    await plugin.admitPeers!(PEERS, ctx());

    const bodies = ruleBodies(before);
    expect(bodies).toHaveLength(2);
    expect(bodies).toContainEqual({
      name: `${TAG}-peers`,
      description: `netbench run ${RUN_ID}: tool traffic from the run's hosts on other clouds (aws-vm, onprem)`,
      network: `projects/${PROJECT}/global/networks/${TAG}`,
      direction: 'INGRESS',
      priority: 1000,
      // Deduplicated (the mapped ::ffff: address is 203.0.113.10); loopback left out.
      sourceRanges: ['203.0.113.10/32', '172.31.5.6/32', '198.51.100.20/32'],
      targetTags: [TAG],
      allowed: [{ IPProtocol: 'tcp' }, { IPProtocol: 'udp' }, { IPProtocol: 'icmp' }],
    });
    expect(bodies).toContainEqual({
      name: `${TAG}-peers-v6`,
      description: `netbench run ${RUN_ID}: tool traffic from the run's hosts on other clouds (aws-vm, onprem)`,
      network: `projects/${PROJECT}/global/networks/${TAG}`,
      direction: 'INGRESS',
      priority: 1000,
      sourceRanges: ['2001:db8::7/128'],
      targetTags: [TAG],
      // ICMPv6 is protocol 58; `icmp` would be IPv4's.
      allowed: [{ IPProtocol: 'tcp' }, { IPProtocol: 'udp' }, { IPProtocol: '58' }],
    });
    // The same protocols as the run's own hosts get from each other.
    const internal = h.fake.resources.get(`projects/${PROJECT}/global/firewalls/${TAG}-internal`)!;
    expect(bodies.find((b) => (b as { name: string }).name === `${TAG}-peers`)).toMatchObject({ allowed: internal['allowed'] });

    const inserts = since(before).filter((r) => r.method === 'POST' && !r.path.endsWith('/wait'));
    expect(inserts.every((r) => /^[0-9a-f-]{36}$/.test(r.query['requestId'] ?? ''))).toBe(true);
    // Each global operation waited on until DONE (two waits on the stand-in), then the rules exist.
    const waits = since(before).filter((r) => r.path.endsWith('/wait'));
    expect(waits).toHaveLength(4);
    expect(waits.every((w) => w.path.startsWith(`${P}/global/operations/`))).toBe(true);
    expect(h.fake.ofType('firewalls')).toEqual(expect.arrayContaining([RULE, RULE6]));

    // Ledgered before the insert, with what teardown and a later admitPeers need.
    for (const id of [RULE, RULE6]) {
      const entries = h.ledger.entries.filter((e) => e.resource.id === id);
      expect(entries.map((e) => e.phase)).toEqual(['intent', 'created']);
      expect(entries[0]!.resource).toMatchObject({ type: 'gce-firewall', data: { network: `projects/${PROJECT}/global/networks/${TAG}`, peers: ['aws-vm', 'onprem'] } });
      const at = requestsAtIntent.get(id)!;
      expect(h.fake.requests.slice(0, at).some((r) => r.method === 'POST' && (r.body as { name?: string } | undefined)?.name === id.split('/').at(-1))).toBe(false);
    }
    expect(h.warnings.join('\n')).toMatch(/cannot admit lab \(127\.0\.0\.1\).*allowFrom/);
    expect(infos.join('\n')).toContain(`admitted aws-vm, onprem from 203.0.113.10/32, 172.31.5.6/32, 198.51.100.20/32`);
  });

  it('treats a rule that already exists (HTTP 409 alreadyExists) as admitted, without waiting', async () => {
    const plugin = await provisioned();
    const ipv4Only = [PEERS[0]!];
    await plugin.admitPeers!(ipv4Only, ctx());
    const before = h.fake.requests.length;
    await expect(plugin.admitPeers!(ipv4Only, ctx())).resolves.toBeUndefined();
    expect(since(before).map((r) => `${r.method} ${r.path}`)).toEqual([`POST ${P}/global/firewalls`]);
    expect(h.ledger.entries.filter((e) => e.resource.id === RULE).map((e) => e.phase)).toEqual(['intent', 'created', 'intent', 'created']);
  });

  it('reports a quota refusal (HTTP 403 quotaExceeded) as QuotaError, and the ledgered rule still tears down (404 = gone)', async () => {
    const plugin = await provisioned();
    h.fake.faults.push({
      method: 'POST',
      path: /\/global\/firewalls$/,
      http: { status: 403, message: "Quota 'FIREWALLS' exceeded.  Limit: 200.0 globally.", reason: 'quotaExceeded' },
    });
    const error = await plugin.admitPeers!([PEERS[0]!], ctx()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QuotaError);
    expect((error as Error).message).toMatch(new RegExp(`creating firewall rule ${TAG}-peers: .*Quota 'FIREWALLS' exceeded`));
    expect(h.ledger.entries.filter((e) => e.resource.id === RULE).map((e) => e.phase)).toEqual(['intent', 'failed']);
    const before = h.fake.requests.length;
    await plugin.teardown(h.ledger.pending()[0]!, h.ctx());
    expect(since(before).map((r) => `${r.method} ${r.path}`)).toEqual([`DELETE ${P}/global/firewalls/${TAG}-peers`]);
  });

  it('reports a quota error inside the finished operation (QUOTA_EXCEEDED) as QuotaError', async () => {
    const plugin = await provisioned();
    h.fake.faults.push({
      method: 'POST',
      path: /\/global\/firewalls$/,
      operationErrors: [{ code: 'QUOTA_EXCEEDED', message: "Quota 'FIREWALLS' exceeded.  Limit: 200.0 globally." }],
    });
    await expect(plugin.admitPeers!([PEERS[0]!], ctx())).rejects.toBeInstanceOf(QuotaError);
  });

  it("puts the rule in a reused network (found from the ledger alone) and tears down only the run's rules", async () => {
    const plugin = await provisioned({ network: 'bench-vpc', subnet: 'bench-us' });
    expect(h.ledger.entries.some((e) => e.resource.type === 'gce-network')).toBe(false);
    const before = h.fake.requests.length;
    await h.plugin().admitPeers!([PEERS[0]!], ctx()); // a fresh plugin: nothing cached from provision
    expect(ruleBodies(before)).toEqual([expect.objectContaining({ name: `${TAG}-peers`, network: `projects/${PROJECT}/global/networks/bench-vpc`, targetTags: [TAG] })]);

    const deleted = h.fake.requests.length;
    for (const resource of h.ledger.pending()) await plugin.teardown(resource, h.ctx());
    const deletes = since(deleted)
      .filter((r) => r.method === 'DELETE')
      .map((r) => r.path);
    expect(deletes[0]).toBe(`${P}/global/firewalls/${TAG}-peers`);
    expect(deletes.some((p) => p.includes('bench-'))).toBe(false);
    expect(h.fake.resources.size).toBe(0);
  });

  it('makes no call when no peer has a routable address, and refuses a ledger without a network', async () => {
    const plugin = h.plugin();
    await plugin.admitPeers!([{ id: 'lab', cloud: 'local', addresses: ['127.0.0.1', 'fe80::1', 'lab.example'] }], ctx());
    expect(h.fake.requests).toEqual([]);
    expect(h.warnings.join('\n')).toMatch(/cannot admit lab/);

    const error = await plugin.admitPeers!([PEERS[0]!], ctx()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetbenchError);
    expect((error as Error).message).toMatch(/ledger holds no network/);
    expect(h.fake.requests).toEqual([]);
    expect(h.ledger.entries).toEqual([]);
  });
});

describe('gcp peer rules after the run', () => {
  it('teardown deletes the rule from its ledger entry alone (firewalls.delete, wait) and a second pass is a 404, success', async () => {
    await provisioned();
    await h.plugin().admitPeers!([PEERS[0]!], ctx());
    const entry = JSON.parse(JSON.stringify(h.ledger.pending()[0])) as LedgerResource;
    expect(entry).toMatchObject({ type: 'gce-firewall', id: RULE });

    const fresh = h.plugin();
    const before = h.fake.requests.length;
    await fresh.teardown(entry, h.ctx());
    expect(since(before).map((r) => `${r.method} ${r.path.replace(/operations\/[^/]+/, 'operations/X')}`)).toEqual([
      `DELETE ${P}/global/firewalls/${TAG}-peers`,
      `POST ${P}/global/operations/X/wait`,
      `POST ${P}/global/operations/X/wait`,
    ]);
    expect(h.fake.resources.has(RULE)).toBe(false);
    const again = h.fake.requests.length;
    await expect(fresh.teardown(entry, h.ctx())).resolves.toBeUndefined();
    expect(since(again).map((r) => r.method)).toEqual(['DELETE']);
  });

  it('cleanup --all finds the rules by their run-id names and deletes them before the network', async () => {
    await provisioned();
    await h.plugin().admitPeers!(PEERS, ctx());
    const plugin = h.plugin();
    const listed = await plugin.cleanup!({ dryRun: true }, h.ctx());
    expect(listed.found.filter((r) => r.type === 'gce-firewall').map((r) => r.id)).toEqual(expect.arrayContaining([RULE, RULE6]));

    const before = h.fake.requests.length;
    const report = await plugin.cleanup!({ runId: RUN_ID }, h.ctx());
    expect(report.failed).toEqual([]);
    const deletes = since(before)
      .filter((r) => r.method === 'DELETE')
      .map((r) => r.path);
    const network = deletes.indexOf(`${P}/global/networks/${TAG}`);
    expect(deletes.indexOf(`${P}/global/firewalls/${TAG}-peers`)).toBeLessThan(network);
    expect(deletes.indexOf(`${P}/global/firewalls/${TAG}-peers-v6`)).toBeGreaterThanOrEqual(0);
    expect(deletes.indexOf(`${P}/global/firewalls/${TAG}-peers-v6`)).toBeLessThan(network);
    expect(h.fake.resources.size).toBe(0);
  });
});
