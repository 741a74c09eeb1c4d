// Contract tests: the plugin drives the real @google-cloud/compute SDK against
// a local stand-in of the Compute REST API (test-support/fake-gce.ts). They pin
// the exact requests (method, path, query, JSON body) netbench sends and how it
// reads the documented responses; they do not talk to Google.
import { join } from 'node:path';
import { consoleWithKeys, keygen, type LabSshd, startSshd } from '@netbench/plugin-api/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectedHost } from './ssh-connect.js';
import { type Harness, harness, PROJECT, RUN_ID, requests } from './test-support/harness.js';

const TAG = `nb-${RUN_ID}`;
const P = `/compute/v1/projects/${PROJECT}`;

describe('gcp provision against the Compute REST API contract', () => {
  let h: Harness;
  let sshd: LabSshd;
  let hosts: ConnectedHost[] = [];
  let keyPath: string;

  beforeAll(async () => {
    h = await harness();
    keyPath = join(h.runDir, 'login_key');
    const publicKey = await keygen(keyPath);
    sshd = await startSshd(h.runDir, publicKey);
    h.fake.serialOutput = () => consoleWithKeys([sshd.hostKeyLine]);
    h.fake.serialChunk = 200; // the keys arrive over several reads (start/next)
    const plugin = h.plugin({ sshPort: sshd.port });
    hosts = (await plugin.provision(
      requests({
        client: { zone: 'us-central1-a', machineType: 'n2-standard-4', sshUser: 'root', sshKeyPath: keyPath, placement: 'compact' },
        server: { zone: 'us-central1-a', machineType: 'n2-standard-4', sshUser: 'root', sshKeyPath: keyPath, placement: 'compact', networkTier: 'standard' },
      }),
      h.ctx(),
    )) as ConnectedHost[];
  }, 60_000);

  afterAll(async () => {
    await Promise.allSettled(hosts.map((host) => host.close()));
    await sshd?.stop();
    await h?.close();
  });

  it('authenticates every request with the injected credentials', () => {
    expect(h.fake.requests.length).toBeGreaterThan(0);
    expect(h.fake.requests.every((r) => r.authorization === 'Bearer test-token')).toBe(true);
  });

  it('creates network, subnet, firewall rules, placement, instances, then the external rule, in that order', () => {
    const creates = h.fake.calls().filter((c) => c.startsWith('POST'));
    expect(creates[0]).toBe(`POST ${P}/global/networks`);
    expect(creates.slice(1, 5).sort()).toEqual([
      `POST ${P}/global/firewalls`,
      `POST ${P}/global/firewalls`,
      `POST ${P}/regions/us-central1/resourcePolicies`,
      `POST ${P}/regions/us-central1/subnetworks`,
    ]);
    expect(creates.slice(5, 7)).toEqual([`POST ${P}/zones/us-central1-a/instances`, `POST ${P}/zones/us-central1-a/instances`]);
    expect(creates[7]).toBe(`POST ${P}/global/firewalls`);
    expect(creates).toHaveLength(8);
  });

  it('sends the documented resource bodies, every name carrying the run id', () => {
    const body = (path: string, i = 0) => h.fake.requests.filter((r) => r.method === 'POST' && r.path === `${P}${path}`)[i]!.body as Record<string, any>;
    expect(body('/global/networks')).toEqual({ name: TAG, description: `netbench run ${RUN_ID}: per-run VPC network`, autoCreateSubnetworks: false });
    expect(body('/regions/us-central1/subnetworks')).toMatchObject({
      name: `${TAG}-us-central1`,
      ipCidrRange: '10.128.0.0/20',
      network: `projects/${PROJECT}/global/networks/${TAG}`,
      region: `projects/${PROJECT}/regions/us-central1`,
    });
    expect(body('/regions/us-central1/resourcePolicies')).toMatchObject({ name: `${TAG}-compact-us-central1-a`, groupPlacementPolicy: { collocation: 'COLLOCATED' } });
    const rules = [0, 1, 2].map((i) => body('/global/firewalls', i));
    const ssh = rules.find((r) => r['name'] === `${TAG}-ssh`)!;
    // SSH only from the controller's address, only to the run's tagged hosts.
    expect(ssh).toMatchObject({ direction: 'INGRESS', sourceRanges: ['198.51.100.7/32'], targetTags: [TAG], allowed: [{ IPProtocol: 'tcp', ports: ['22'] }] });
    expect(ssh['sourceTags']).toBeUndefined();
    const internal = rules.find((r) => r['name'] === `${TAG}-internal`)!;
    expect(internal).toMatchObject({ sourceTags: [TAG], targetTags: [TAG], allowed: [{ IPProtocol: 'tcp' }, { IPProtocol: 'udp' }, { IPProtocol: 'icmp' }] });
    expect(internal['sourceRanges']).toBeUndefined();
    const external = rules.find((r) => r['name'] === `${TAG}-external`)!;
    expect(external).toMatchObject({ sourceRanges: ['127.0.0.1/32'], targetTags: [TAG] });

    const server = h.fake.requests
      .filter((r) => r.path === `${P}/zones/us-central1-a/instances` && r.method === 'POST')
      .map((r) => r.body as Record<string, any>)
      .find((b) => b['name'] === `${TAG}-server`)!;
    expect(server).toMatchObject({
      machineType: 'zones/us-central1-a/machineTypes/n2-standard-4',
      labels: { 'netbench-run': RUN_ID, 'netbench-host': 'server', 'managed-by': 'netbench' },
      tags: { items: [TAG] },
      disks: [{ boot: true, autoDelete: true, initializeParams: { sourceImage: 'projects/ubuntu-os-cloud/global/images/family/ubuntu-2404-lts-amd64' } }],
      networkInterfaces: [
        {
          network: `projects/${PROJECT}/global/networks/${TAG}`,
          subnetwork: `projects/${PROJECT}/regions/us-central1/subnetworks/${TAG}-us-central1`,
          accessConfigs: [{ type: 'ONE_TO_ONE_NAT', networkTier: 'STANDARD' }],
        },
      ],
      resourcePolicies: [`projects/${PROJECT}/regions/us-central1/resourcePolicies/${TAG}-compact-us-central1-a`],
      scheduling: { onHostMaintenance: 'TERMINATE' },
    });
    const sshKeys = server['metadata']['items'].find((i: { key: string }) => i.key === 'ssh-keys').value as string;
    expect(sshKeys).toMatch(/^root:ssh-ed25519 AAAA\S+ netbench-test$/);
  });

  it('makes every insert retry-safe with a unique requestId', () => {
    const inserts = h.fake.requests.filter((r) => r.method === 'POST' && !r.path.endsWith('/wait'));
    const ids = inserts.map((r) => r.query['requestId']);
    expect(ids.every((id) => /^[0-9a-f-]{36}$/.test(id ?? ''))).toBe(true);
    expect(new Set(ids).size).toBe(inserts.length);
  });

  it('waits for every operation until DONE with the wait method of its scope', () => {
    const waits = h.fake.requests.filter((r) => r.path.endsWith('/wait'));
    // 8 creates, PENDING → RUNNING → DONE: two waits each.
    expect(waits).toHaveLength(16);
    expect(waits.filter((w) => w.path.includes('/zones/us-central1-a/operations/'))).toHaveLength(4);
    expect(waits.filter((w) => w.path.includes('/regions/us-central1/operations/'))).toHaveLength(4);
  });

  it('reads the serial console from where the last read ended, and pins the host key printed there', async () => {
    const reads = h.fake.requests.filter((r) => r.path.endsWith('/serialPort'));
    expect(reads.length).toBeGreaterThan(2);
    expect(reads[0]!.query).toEqual({ port: '1', start: '0' });
    expect(reads.some((r) => Number(r.query['start']) > 0)).toBe(true);
    expect(hosts.map((host) => host.hostKeyVerification)).toEqual(['pinned', 'pinned']);
    expect(hosts[0]!.labels).toMatchObject({ host_key: 'pinned:gce-serial-console', network_tier: 'PREMIUM' });
    expect(hosts[1]!.labels).toMatchObject({ network_tier: 'STANDARD', placement: 'compact' });
  });

  it('returns hosts in request order with the addresses the API reported, reachable over SSH', async () => {
    expect(hosts.map((host) => [host.id, host.zone, host.region, host.machineType, host.externalIp])).toEqual([
      ['client', 'us-central1-a', 'us-central1', 'n2-standard-4', '127.0.0.1'],
      ['server', 'us-central1-a', 'us-central1', 'n2-standard-4', '127.0.0.1'],
    ]);
    expect(hosts.map((host) => host.internalIp).sort()).toEqual(['10.128.0.2', '10.128.0.3']);
    const result = await hosts[1]!.exec(['echo', 'a; $(id)']);
    expect(result.stdout).toBe('a; $(id)\n');
  });

  it('records every resource in the ledger before creating it', () => {
    const entries = h.ledger.entries;
    const intents = entries.filter((e) => e.phase === 'intent').map((e) => e.resource.id);
    expect(intents).toHaveLength(8);
    for (const id of intents) {
      const intent = entries.findIndex((e) => e.phase === 'intent' && e.resource.id === id);
      const created = entries.findIndex((e) => e.phase === 'created' && e.resource.id === id);
      expect(created).toBeGreaterThan(intent);
      expect(id).toContain(TAG);
    }
    expect(intents[0]).toBe(`projects/${PROJECT}/global/networks/${TAG}`);
    expect(
      entries
        .filter((e) => e.resource.type === 'gce-instance' && e.phase === 'intent')
        .map((e) => e.resource.host)
        .sort(),
    ).toEqual(['client', 'server']);
  });

  it('uses a bounded number of API calls per host', () => {
    const perHost = h.fake.requests.length / 2;
    console.log(
      `gcp: ${h.fake.requests.length} API calls for 2 hosts (${perHost} per host; ${h.fake.requests.filter((r) => r.path.endsWith('/serialPort')).length} serial console reads)`,
    );
    expect(perHost).toBeLessThanOrEqual(20);
  });
});
