// Contract tests of the Classic Cloud VPN between two vpcGroup networks: the real
// @google-cloud/compute SDK against the local Compute REST stand-in
// (test-support/fake-gce.ts), which checks every request against Google's
// Compute v1 discovery document. They do not talk to Google.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type LedgerResource, type Logger, UnsupportedError } from '@netbench/plugin-api';
import { closedPort } from '@netbench/plugin-api/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { validateGceRequest } from './test-support/discovery.js';
import { type Harness, harness, PROJECT, RUN_ID, requests } from './test-support/harness.js';

const TAG = `nb-${RUN_ID}`;
const P = `/compute/v1/projects/${PROJECT}`;
const VPN = { gateways: 1, tunnels: 2, ikeVersion: 2 };
/** PKB's vpn_custom_cidr.yaml: two groups, own ranges, two regions. */
const HOSTS = {
  vm_1: { zone: 'us-west1-b', machineType: 'n1-standard-4', cidr: '10.0.1.0/24', vpcGroup: 'vm-1', vpn: VPN, hostKeys: 'tofu' },
  vm_2: { zone: 'us-central1-c', machineType: 'n1-standard-4', cidr: '192.168.1.0/24', vpcGroup: 'vm-2', vpn: VPN, hostKeys: 'tofu' },
};

let h: Harness;
let logged: string[];
beforeEach(async () => {
  h = await harness();
  logged = [];
});
afterEach(async () => {
  await h.close();
});

/** Provision with SSH pointed at a closed port: every cloud resource is made, then the hosts cannot be reached. */
async function provision(blocks: Record<string, Record<string, unknown>>) {
  const plugin = h.plugin({ sshPort: await closedPort() });
  const log: Logger = { debug: (m) => logged.push(m), info: (m) => logged.push(m), warn: (m) => logged.push(m) };
  const error = await plugin.provision(requests(blocks), { ...h.ctx(), log }).then(
    () => undefined,
    (e: unknown) => e,
  );
  return { plugin, error };
}

async function teardownAll(plugin: ReturnType<Harness['plugin']>, resources: readonly LedgerResource[] = h.ledger.pending()) {
  for (const resource of resources) await plugin.teardown(resource, h.ctx());
}

async function filesUnder(dir: string): Promise<string> {
  const names = await readdir(dir, { recursive: true, withFileTypes: true });
  const texts = await Promise.all(names.filter((d) => d.isFile()).map((d) => readFile(join(d.parentPath, d.name), 'utf8')));
  return texts.join('\n');
}

const bodiesOf = (collection: string) => h.fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith(`/${collection}`)).map((r) => r.body as Record<string, any>);

describe('gcp Classic VPN between two vpcGroup networks', () => {
  it('creates both networks, gateways, forwarding rules, tunnels and routes as the discovery document allows, then tears all down in dependency order', async () => {
    const { plugin, error } = await provision(HOSTS);
    expect(String(error)).toMatch(/vm_1|vm_2|127\.0\.0\.1|connect/i); // only SSH failed: the closed port
    expect(h.fake.violations).toEqual([]);

    expect(h.fake.ofType('networks').sort()).toEqual([`projects/${PROJECT}/global/networks/${TAG}-vm-1`, `projects/${PROJECT}/global/networks/${TAG}-vm-2`]);
    const subnets = bodiesOf('subnetworks')
      .map((b) => `${b['network']} ${b['ipCidrRange']}`)
      .sort();
    expect(subnets).toEqual([`projects/${PROJECT}/global/networks/${TAG}-vm-1 10.0.1.0/24`, `projects/${PROJECT}/global/networks/${TAG}-vm-2 192.168.1.0/24`]);
    // Each host is in its own group's network.
    const nics = bodiesOf('instances')
      .map((b) => `${b['name']} ${b['networkInterfaces'][0].network}`)
      .sort();
    expect(nics).toEqual([`${TAG}-vm-1 projects/${PROJECT}/global/networks/${TAG}-vm-1`, `${TAG}-vm-2 projects/${PROJECT}/global/networks/${TAG}-vm-2`]);
    // Tags do not cross the VPN: each network admits the other's range.
    const internal = bodiesOf('firewalls').filter((b) => String(b['name']).endsWith('-internal'));
    expect(internal.map((b) => `${b['name']} ${b['sourceRanges']}`).sort()).toEqual([`${TAG}-vm-1-internal 192.168.1.0/24`, `${TAG}-vm-2-internal 10.0.1.0/24`]);

    expect(h.fake.ofType('addresses')).toHaveLength(2);
    expect(h.fake.ofType('targetVpnGateways').sort()).toEqual([
      `projects/${PROJECT}/regions/us-central1/targetVpnGateways/${TAG}-vm-2-vpn0`,
      `projects/${PROJECT}/regions/us-west1/targetVpnGateways/${TAG}-vm-1-vpn0`,
    ]);
    const rules = bodiesOf('forwardingRules');
    expect(rules.map((b) => `${b['IPProtocol']}:${b['portRange'] ?? ''}`).sort()).toEqual(['ESP:', 'ESP:', 'UDP:4500', 'UDP:4500', 'UDP:500', 'UDP:500']);
    const addressOf = (group: string) => h.fake.resources.get([...h.fake.resources.keys()].find((k) => k.endsWith(`/addresses/${TAG}-${group}-vpn0`))!)!['address'] as string;
    expect(rules.filter((b) => String(b['target']).includes('vm-1-vpn0')).every((b) => b['IPAddress'] === addressOf('vm-1'))).toBe(true);

    // Two tunnels each way; each side's tunnel points at the other side's gateway address, IKEv2, one secret per pair.
    const tunnels = bodiesOf('vpnTunnels');
    expect(tunnels.map((t) => `${t['name']} -> ${t['peerIp']} ikev${t['ikeVersion']}`).sort()).toEqual([
      `${TAG}-vm-1-vpn0-t0 -> ${addressOf('vm-2')} ikev2`,
      `${TAG}-vm-1-vpn0-t1 -> ${addressOf('vm-2')} ikev2`,
      `${TAG}-vm-2-vpn0-t0 -> ${addressOf('vm-1')} ikev2`,
      `${TAG}-vm-2-vpn0-t1 -> ${addressOf('vm-1')} ikev2`,
    ]);
    const secret = (name: string) => tunnels.find((t) => t['name'] === `${TAG}-${name}`)!['sharedSecret'] as string;
    expect(secret('vm-1-vpn0-t0')).toBe(secret('vm-2-vpn0-t0'));
    expect(secret('vm-1-vpn0-t1')).toBe(secret('vm-2-vpn0-t1'));
    expect(secret('vm-1-vpn0-t0')).not.toBe(secret('vm-1-vpn0-t1'));
    expect(secret('vm-1-vpn0-t0')).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    // The secrets are in the insert requests only: not in the ledger, the log or any file of the run folder.
    const secrets = tunnels.map((t) => t['sharedSecret'] as string);
    const ledgerText = JSON.stringify(h.ledger.entries);
    const files = await filesUnder(h.runDir);
    for (const s of secrets) {
      expect(ledgerText).not.toContain(s);
      expect(logged.join('\n')).not.toContain(s);
      expect(files).not.toContain(s);
    }

    // Static routes: the other side's range into each tunnel.
    const routes = bodiesOf('routes')
      .map((r) => `${r['network'].split('/').at(-1)} ${r['destRange']} via ${r['nextHopVpnTunnel'].split('/').at(-1)}`)
      .sort();
    expect(routes).toEqual([
      `${TAG}-vm-1 192.168.1.0/24 via ${TAG}-vm-1-vpn0-t0`,
      `${TAG}-vm-1 192.168.1.0/24 via ${TAG}-vm-1-vpn0-t1`,
      `${TAG}-vm-2 10.0.1.0/24 via ${TAG}-vm-2-vpn0-t0`,
      `${TAG}-vm-2 10.0.1.0/24 via ${TAG}-vm-2-vpn0-t1`,
    ]);
    // Every resource was in the ledger (intent) before its insert.
    const created = h.ledger.entries.filter((e) => e.phase === 'created').map((e) => e.resource.type);
    expect(created.filter((t) => t.startsWith('gce-') && /address|vpn|forwarding|route/.test(t)).length).toBe(2 + 2 + 6 + 4 + 4);

    // Teardown from the ledger, newest first (as the engine does): nothing left, dependents first.
    await teardownAll(plugin);
    expect([...h.fake.resources.keys()]).toEqual([]);
    const deletes = h.fake
      .calls()
      .filter((c) => c.startsWith('DELETE'))
      .map((c) => c.split('/').at(-2)!);
    const last = (collection: string) => deletes.lastIndexOf(collection);
    const firstOf = (collection: string) => deletes.indexOf(collection);
    expect(last('routes')).toBeLessThan(firstOf('vpnTunnels'));
    expect(last('vpnTunnels')).toBeLessThan(firstOf('forwardingRules'));
    expect(last('forwardingRules')).toBeLessThan(firstOf('targetVpnGateways'));
    expect(last('targetVpnGateways')).toBeLessThan(firstOf('networks'));
    expect(h.fake.violations).toEqual([]);
  });

  it('a tunnel the API refuses fails the run, and teardown still deletes everything made before it', async () => {
    h.fake.faults.push({
      method: 'POST',
      path: /\/vpnTunnels$/,
      http: { status: 403, message: "Quota 'VPN_TUNNELS' exceeded.  Limit: 0.0 in region us-west1.", reason: 'quotaExceeded' },
    });
    const { plugin, error } = await provision(HOSTS);
    expect(String(error)).toMatch(/VPN_TUNNELS/);
    // Nothing after the refused stage was tried: no routes, no instances.
    expect(h.fake.calls().filter((c) => /routes$|instances$/.test(c))).toEqual([]);
    expect(h.fake.ofType('targetVpnGateways')).toHaveLength(2);
    expect(h.ledger.entries.some((e) => e.resource.type === 'gce-vpn-tunnel' && e.phase === 'failed')).toBe(true);

    await teardownAll(plugin);
    expect([...h.fake.resources.keys()]).toEqual([]);
    expect(h.fake.violations).toEqual([]);
  });

  it('netbench cleanup finds the VPN resources of a run by name and deletes them before the networks', async () => {
    h.fake.faults.push({ method: 'POST', path: /\/routes$/, operationErrors: [{ code: 'RESOURCE_NOT_READY', message: 'the tunnel is not ready' }] });
    const { plugin, error } = await provision(HOSTS);
    expect(error).toBeDefined();
    expect(h.fake.ofType('vpnTunnels')).toHaveLength(4);
    const report = await plugin.cleanup!({ runId: RUN_ID }, h.ctx());
    expect(report.failed).toEqual([]);
    const types = report.found.map((r) => r.type);
    // The fault refused one of the four routes; the other three were made and are found first.
    expect(types.filter((t) => t === 'gce-route')).toHaveLength(3);
    expect(types.lastIndexOf('gce-route')).toBeLessThan(types.indexOf('gce-vpn-tunnel'));
    expect(types.lastIndexOf('gce-vpn-tunnel')).toBeLessThan(types.indexOf('gce-forwarding-rule'));
    expect(types.lastIndexOf('gce-forwarding-rule')).toBeLessThan(types.indexOf('gce-target-vpn-gateway'));
    expect(types.lastIndexOf('gce-address')).toBeLessThan(types.indexOf('gce-network'));
    expect([...h.fake.resources.keys()]).toEqual([]);
  });

  it('refuses Classic VPN with dynamic routing, HA VPN with static routing, and a VPN over other than two groups, before creating anything', async () => {
    for (const [blocks, message] of [
      [{ a: { ...HOSTS.vm_1, vpn: { ...VPN, routing: 'dynamic' } }, b: { ...HOSTS.vm_2, vpn: { ...VPN, routing: 'dynamic' } } }, /Classic VPN with dynamic routing is not built/],
      [{ a: { ...HOSTS.vm_1, vpn: { ...VPN, type: 'ha' } }, b: { ...HOSTS.vm_2, vpn: { ...VPN, type: 'ha' } } }, /HA VPN is built with dynamic routing/],
      [{ a: HOSTS.vm_1, b: { ...HOSTS.vm_2, vpcGroup: 'vm-1' } }, /exactly two vpcGroup networks/],
      [{ a: HOSTS.vm_1, b: { ...HOSTS.vm_2, vpn: { ...VPN, tunnels: 1 } } }, /same vpn block/],
    ] as const) {
      const { error } = await provision(blocks as unknown as Record<string, Record<string, unknown>>);
      expect(error).toBeInstanceOf(UnsupportedError);
      expect(String(error)).toMatch(message);
    }
    expect(h.fake.calls().filter((c) => c.startsWith('POST'))).toEqual([]);
  });

  it('the stand-in checks VPN requests against the discovery document (a body the API refuses is refused)', () => {
    const path = `projects/${PROJECT}/regions/us-west1/vpnTunnels`;
    const ok = { name: `${TAG}-t`, peerIp: '203.0.113.1', ikeVersion: 2, sharedSecret: 's', targetVpnGateway: `projects/${PROJECT}/regions/us-west1/targetVpnGateways/g` };
    expect(validateGceRequest('POST', path, {}, ok)).toEqual([]);
    expect(validateGceRequest('POST', path, {}, { ...ok, sharedSecrett: 's' }).map((v) => v.field)).toEqual(['sharedSecrett']);
    expect(validateGceRequest('POST', path, {}, { ...ok, ikeVersion: 'two' }).map((v) => v.field)).toEqual(['ikeVersion']);
    expect(validateGceRequest('POST', `projects/${PROJECT}/regions/us-west1/forwardingRules`, {}, { name: `${TAG}-f`, IPProtocol: 'GRE2' }).map((v) => v.field)).toContain(
      'IPProtocol',
    );
    // routes.insert requires a priority; a next hop is a URL.
    expect(
      validateGceRequest('POST', `projects/${PROJECT}/global/routes`, {}, { name: `${TAG}-r`, network: 'n', destRange: '10.0.0.0/24', nextHopVpnTunnel: 'not a url' })
        .map((v) => v.field)
        .sort(),
    ).toEqual(['nextHopVpnTunnel', 'priority']);
  });

  it('gives vpcGroup networks distinct default ranges and keeps names and rules per group', async () => {
    const { plugin } = await provision({ a: { zone: 'us-central1-a', vpcGroup: 'a', hostKeys: 'tofu' }, b: { zone: 'us-central1-a', vpcGroup: 'b', hostKeys: 'tofu' } });
    expect(
      bodiesOf('subnetworks')
        .map((b) => `${b['name']} ${b['ipCidrRange']}`)
        .sort(),
    ).toEqual([`${TAG}-a-us-central1 10.128.0.0/20`, `${TAG}-b-us-central1 10.129.0.0/20`]);
    // No vpn: no VPN resources, and the internal rules admit tags only.
    expect(h.fake.calls().filter((c) => /vpn|forwardingRules|addresses|routes/i.test(c))).toEqual([]);
    expect(
      bodiesOf('firewalls')
        .filter((b) => String(b['name']).endsWith('-internal'))
        .every((b) => b['sourceRanges'] === undefined),
    ).toBe(true);
    expect(h.fake.violations).toEqual([]);
    await teardownAll(plugin);
    expect([...h.fake.resources.keys()]).toEqual([]);
    expect(P).toContain(PROJECT);
  });
});
