// Contract tests of HA VPN with dynamic routing (Cloud Router + BGP) between two
// vpcGroup networks: the real @google-cloud/compute SDK against the local Compute
// REST stand-in (test-support/fake-gce.ts), which checks every request against
// Google's Compute v1 discovery document. They do not talk to Google.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type LedgerResource, type Logger, UnsupportedError } from '@netbench/plugin-api';
import { closedPort } from '@netbench/plugin-api/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bgpLink } from './ha-vpn.js';
import { validateGceRequest } from './test-support/discovery.js';
import { type Harness, harness, PROJECT, RUN_ID, requests } from './test-support/harness.js';

const TAG = `nb-${RUN_ID}`;
const VPN = { type: 'ha', routing: 'dynamic', gateways: 1, tunnels: 1, ikeVersion: 2 };
const HOSTS = {
  vm_1: { zone: 'us-west1-b', machineType: 'n1-standard-4', cidr: '10.0.1.0/24', vpcGroup: 'vm-1', vpn: VPN, hostKeys: 'tofu' },
  vm_2: { zone: 'us-central1-c', machineType: 'n1-standard-4', cidr: '192.168.1.0/24', vpcGroup: 'vm-2', vpn: VPN, hostKeys: 'tofu' },
};
const ROUTER = (group: string, region: string) => `projects/${PROJECT}/regions/${region}/routers/${TAG}-${group}-router`;
const GATEWAY = (group: string, region: string) => `projects/${PROJECT}/regions/${region}/vpnGateways/${TAG}-${group}-ha0`;
const TUNNEL = (group: string, region: string, i: number) => `projects/${PROJECT}/regions/${region}/vpnTunnels/${TAG}-${group}-ha0-i${i}-t0`;

let h: Harness;
let logged: string[];
beforeEach(async () => {
  h = await harness();
  logged = [];
});
afterEach(async () => {
  await h.close();
});

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

const bodiesOf = (collection: string, method = 'POST') =>
  h.fake.requests
    .filter((r) => r.method === method && (method === 'POST' ? r.path.endsWith(`/${collection}`) : r.path.includes(`/${collection}/`)))
    .map((r) => r.body as Record<string, any>);

describe('gcp HA VPN with dynamic routing (Cloud Router + BGP)', () => {
  it('creates routers, HA gateways, IKEv2 tunnels per interface and BGP sessions as the discovery document allows, then tears all down in dependency order', async () => {
    const { plugin, error } = await provision(HOSTS);
    expect(String(error)).toMatch(/vm_1|vm_2|127\.0\.0\.1|connect/i); // only SSH failed: the closed port
    expect(h.fake.violations).toEqual([]);

    // One Cloud Router per network, distinct private ASNs.
    const routers = bodiesOf('routers');
    expect(routers.map((r) => `${r['name']} ${r['network'].split('/').at(-1)} ${r['bgp'].asn}`).sort()).toEqual([
      `${TAG}-vm-1-router ${TAG}-vm-1 64512`,
      `${TAG}-vm-2-router ${TAG}-vm-2 64513`,
    ]);
    // One HA VPN gateway per network, with the two interfaces the API gives it.
    expect(h.fake.ofType('vpnGateways').sort()).toEqual([GATEWAY('vm-2', 'us-central1'), GATEWAY('vm-1', 'us-west1')]);
    for (const id of h.fake.ofType('vpnGateways')) expect(h.fake.resources.get(id)!['vpnInterfaces'].map((i: { id: number }) => i.id)).toEqual([0, 1]);
    // No Classic VPN pieces, no static routes.
    expect(h.fake.calls().filter((c) => /targetVpnGateways|forwardingRules|addresses|\/routes/.test(c))).toEqual([]);

    // Tunnels: interface i to the peer gateway's interface i, IKEv2, each on its side's router.
    const tunnels = bodiesOf('vpnTunnels');
    expect(
      tunnels
        .map(
          (t) =>
            `${t['name']} if${t['vpnGatewayInterface']} ${t['vpnGateway'].split('/').at(-1)} -> ${t['peerGcpGateway'].split('/').at(-1)} ikev${t['ikeVersion']} ${t['router'].split('/').at(-1)}`,
        )
        .sort(),
    ).toEqual([
      `${TAG}-vm-1-ha0-i0-t0 if0 ${TAG}-vm-1-ha0 -> ${TAG}-vm-2-ha0 ikev2 ${TAG}-vm-1-router`,
      `${TAG}-vm-1-ha0-i1-t0 if1 ${TAG}-vm-1-ha0 -> ${TAG}-vm-2-ha0 ikev2 ${TAG}-vm-1-router`,
      `${TAG}-vm-2-ha0-i0-t0 if0 ${TAG}-vm-2-ha0 -> ${TAG}-vm-1-ha0 ikev2 ${TAG}-vm-2-router`,
      `${TAG}-vm-2-ha0-i1-t0 if1 ${TAG}-vm-2-ha0 -> ${TAG}-vm-1-ha0 ikev2 ${TAG}-vm-2-router`,
    ]);
    expect(tunnels.every((t) => t['peerIp'] === undefined && t['targetVpnGateway'] === undefined)).toBe(true);
    const secret = (name: string) => tunnels.find((t) => t['name'] === `${TAG}-${name}`)!['sharedSecret'] as string;
    expect(secret('vm-1-ha0-i0-t0')).toBe(secret('vm-2-ha0-i0-t0'));
    expect(secret('vm-1-ha0-i1-t0')).toBe(secret('vm-2-ha0-i1-t0'));
    expect(secret('vm-1-ha0-i0-t0')).not.toBe(secret('vm-1-ha0-i1-t0'));
    expect(secret('vm-1-ha0-i0-t0')).toMatch(/^[A-Za-z0-9+/]{43}=$/);

    // BGP by routers.patch: per tunnel an interface on a link-local /30 and a peer at the other end, pairwise consistent.
    const patches = h.fake.requests.filter((r) => r.method === 'PATCH');
    expect(patches.map((r) => r.path.split('/').slice(-4).join('/')).sort()).toEqual(
      [`regions/us-central1/routers`, `regions/us-west1/routers`].map((p, i) => `${p}/${TAG}-vm-${2 - i}-router`),
    );
    const router = (group: string, region: string) => h.fake.resources.get(ROUTER(group, region))!;
    const a = router('vm-1', 'us-west1');
    const b = router('vm-2', 'us-central1');
    expect(a['interfaces'].map((i: any) => `${i.name} ${i.ipRange} ${i.linkedVpnTunnel}`)).toEqual([
      `if-0 ${bgpLink(0)[0]}/30 ${TUNNEL('vm-1', 'us-west1', 0)}`,
      `if-1 ${bgpLink(1)[0]}/30 ${TUNNEL('vm-1', 'us-west1', 1)}`,
    ]);
    expect(b['interfaces'].map((i: any) => `${i.name} ${i.ipRange} ${i.linkedVpnTunnel}`)).toEqual([
      `if-0 ${bgpLink(0)[1]}/30 ${TUNNEL('vm-2', 'us-central1', 0)}`,
      `if-1 ${bgpLink(1)[1]}/30 ${TUNNEL('vm-2', 'us-central1', 1)}`,
    ]);
    expect(bgpLink(0)).toEqual(['169.254.1.1', '169.254.1.2']);
    expect(bgpLink(1)).toEqual(['169.254.1.5', '169.254.1.6']);
    for (const [self, other, peerAsn] of [
      [a, b, 64513],
      [b, a, 64512],
    ] as const) {
      expect(self['bgpPeers'].map((p: any) => `${p.name} ${p.interfaceName} ${p.peerAsn}`)).toEqual([`peer-0 if-0 ${peerAsn}`, `peer-1 if-1 ${peerAsn}`]);
      // Each peer address is the other end's interface address, in the same /30.
      expect(self['bgpPeers'].map((p: any) => p.peerIpAddress)).toEqual(other['interfaces'].map((i: any) => i.ipRange.replace('/30', '')));
    }

    // The secrets are in the insert requests only.
    const files = await filesUnder(h.runDir);
    for (const s of tunnels.map((t) => t['sharedSecret'] as string)) {
      expect(JSON.stringify(h.ledger.entries)).not.toContain(s);
      expect(logged.join('\n')).not.toContain(s);
      expect(files).not.toContain(s);
    }
    // Everything was in the ledger before it was made: 2 routers, 2 gateways, 4 tunnels, 2 BGP configurations.
    const created = h.ledger.entries.filter((e) => e.phase === 'created').map((e) => e.resource.type);
    expect(['gce-router', 'gce-vpn-gateway', 'gce-vpn-tunnel', 'gce-router-bgp'].map((t) => created.filter((c) => c === t).length)).toEqual([2, 2, 4, 2]);

    // Teardown newest first: BGP cleared (routers.update), tunnels, gateways, routers, networks.
    await teardownAll(plugin);
    expect([...h.fake.resources.keys()]).toEqual([]);
    expect(h.fake.requests.filter((r) => r.method === 'PUT').map((r) => (r.body as any)['interfaces'] ?? [])).toEqual([[], []]);
    const calls = h.fake
      .calls()
      .filter((c) => /^(PUT|DELETE)/.test(c))
      .map((c) => `${c.split(' ')[0]} ${c.split('/').at(-2)}`);
    const last = (what: string) => calls.lastIndexOf(what);
    const firstOf = (what: string) => calls.indexOf(what);
    expect(last('PUT routers')).toBeLessThan(firstOf('DELETE vpnTunnels'));
    expect(last('DELETE vpnTunnels')).toBeLessThan(firstOf('DELETE vpnGateways'));
    expect(last('DELETE vpnTunnels')).toBeLessThan(firstOf('DELETE routers'));
    expect(last('DELETE routers')).toBeLessThan(firstOf('DELETE networks'));
    expect(h.fake.violations).toEqual([]);
  });

  it('routers.patch refused fails the run, and teardown still deletes everything made', async () => {
    h.fake.faults.push({ method: 'PATCH', path: /\/routers\//, http: { status: 400, message: "Invalid value for field 'resource.bgpPeers[0].peerAsn'", reason: 'invalid' } });
    const { plugin, error } = await provision(HOSTS);
    expect(String(error)).toMatch(/peerAsn/);
    expect(h.fake.ofType('vpnTunnels')).toHaveLength(4);
    expect(h.fake.calls().filter((c) => /instances$/.test(c))).toEqual([]);
    expect(h.ledger.entries.some((e) => e.resource.type === 'gce-router-bgp' && e.phase === 'failed')).toBe(true);
    await teardownAll(plugin);
    expect([...h.fake.resources.keys()]).toEqual([]);
    expect(h.fake.violations).toEqual([]);
  });

  it('netbench cleanup finds the HA VPN resources of a failed run by name: BGP cleared, then tunnels, gateways, routers, networks', async () => {
    h.fake.faults.push({ method: 'POST', path: /\/instances$/, http: { status: 403, message: "Quota 'CPUS' exceeded.", reason: 'quotaExceeded' } });
    const { plugin, error } = await provision(HOSTS);
    expect(String(error)).toMatch(/CPUS/);
    expect(h.fake.resources.get(ROUTER('vm-1', 'us-west1'))!['bgpPeers']).toHaveLength(2);
    const report = await plugin.cleanup!({ runId: RUN_ID }, h.ctx());
    expect(report.failed).toEqual([]);
    const types = report.found.map((r) => r.type);
    expect(types.filter((t) => t === 'gce-router-bgp')).toHaveLength(2);
    expect(types.lastIndexOf('gce-router-bgp')).toBeLessThan(types.indexOf('gce-vpn-tunnel'));
    expect(types.lastIndexOf('gce-vpn-tunnel')).toBeLessThan(types.indexOf('gce-vpn-gateway'));
    expect(types.lastIndexOf('gce-vpn-gateway')).toBeLessThan(types.indexOf('gce-router'));
    expect(types.lastIndexOf('gce-router')).toBeLessThan(types.indexOf('gce-network'));
    expect([...h.fake.resources.keys()]).toEqual([]);
    expect(h.fake.violations).toEqual([]);
  });

  it('refuses HA VPN with IKEv1 or static routing, and Classic VPN with dynamic routing, before creating anything', async () => {
    // IKEv1 with HA is a spec error (the host schema), before any plugin call.
    expect(() => requests({ a: { ...HOSTS.vm_1, vpn: { ...VPN, ikeVersion: 1 } } })).toThrow(/HA VPN requires IKEv2/);
    for (const [vpn, message] of [
      [{ ...VPN, routing: 'static' }, /HA VPN is built with dynamic routing .* only/],
      [{ ...VPN, type: 'classic' }, /Classic VPN with dynamic routing is not built; .* use type: ha/],
    ] as const) {
      const { error } = await provision({ a: { ...HOSTS.vm_1, vpn }, b: { ...HOSTS.vm_2, vpn } });
      expect(error).toBeInstanceOf(UnsupportedError);
      expect(String(error)).toMatch(message);
    }
    expect(h.fake.calls().filter((c) => c.startsWith('POST'))).toEqual([]);
  });

  it('the stand-in checks HA VPN and Cloud Router requests against the discovery document', () => {
    const region = `projects/${PROJECT}/regions/us-west1`;
    expect(validateGceRequest('POST', `${region}/vpnGateways`, {}, { name: `${TAG}-g`, network: 'projects/p/global/networks/n' })).toEqual([]);
    expect(validateGceRequest('POST', `${region}/vpnGateways`, {}, { name: `${TAG}-g`, network: 'n', vpnInterfacez: [] }).map((v) => v.field)).toContain('vpnInterfacez');
    expect(validateGceRequest('POST', `${region}/routers`, {}, { name: `${TAG}-r`, network: 'projects/p/global/networks/n', bgp: { asn: 64512 } })).toEqual([]);
    expect(validateGceRequest('POST', `${region}/routers`, {}, { name: `${TAG}-r`, network: 'projects/p/global/networks/n', bgp: { asn: 'private' } }).length).toBeGreaterThan(0);
    expect(validateGceRequest('PATCH', `${region}/routers/r`, {}, { bgpPeers: [{ name: 'p', peerAsn: 64513, peerIpAddress: '169.254.1.2', interfaceName: 'if-0' }] })).toEqual([]);
    expect(validateGceRequest('PATCH', `${region}/routers/r`, {}, { bgpPeers: [{ name: 'p', peerAsnn: 64513 }] }).length).toBeGreaterThan(0);
    expect(validateGceRequest('DELETE', `${region}/vpnGateways/g`, {}, undefined)).toEqual([]);
  });
});
