// Contract tests: the plugin drives the real @azure/arm-* SDKs against a local
// HTTPS stand-in of Azure Resource Manager (test-support/fake-arm.ts). They pin
// the exact requests (method, path, query, JSON body) netbench sends and how it
// reads the documented responses and long-running operations; they do not talk to Azure.
import { join } from 'node:path';
import { consoleWithKeys, keygen, type LabSshd, startSshd } from '@netbench/plugin-api/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectedHost } from './ssh-connect.js';
import { type Harness, harness, RUN_ID, requests, SUBSCRIPTION } from './test-support/harness.js';
import { labLoginUser, letLabUserReadKeys } from './test-support/login-user.js';

const RG = `nb-${RUN_ID}`;
const G = `/subscriptions/${SUBSCRIPTION}/resourceGroups/${RG}`;
const NET = `${G}/providers/Microsoft.Network`;
const USER = labLoginUser();

describe('azure provision against the Resource Manager REST contract', () => {
  let h: Harness;
  let sshd: LabSshd;
  let hosts: ConnectedHost[] = [];

  beforeAll(async () => {
    h = await harness();
    const keyPath = join(h.runDir, 'login_key');
    sshd = await startSshd(h.runDir, await keygen(keyPath));
    letLabUserReadKeys(h.runDir);
    h.fake.serialLog = () => consoleWithKeys([sshd.hostKeyLine]);
    const plugin = h.plugin({ sshPort: sshd.port });
    hosts = (await plugin.provision(
      requests({
        // Azure refuses `root` as adminUsername: a user the lab sshd can log in as that Azure takes.
        client: { zone: 'eastus-1', sshUser: USER, sshKeyPath: keyPath, placement: 'proximity' },
        server: { zone: 'westeurope', machineType: 'Standard_D4s_v5', sshUser: USER, sshKeyPath: keyPath, acceleratedNetworking: false },
      }),
      h.ctx(),
    )) as ConnectedHost[];
  }, 60_000);

  afterAll(async () => {
    await Promise.allSettled(hosts.map((host) => host.close()));
    await sshd?.stop();
    await h?.close();
  });

  const puts = () => h.fake.requests.filter((r) => r.method === 'PUT');
  const body = (pathEnd: string) => puts().find((r) => r.path.endsWith(pathEnd))!.body as Record<string, any>;

  it('authenticates every Resource Manager request with the credential, and never sends it to storage', () => {
    const arm = h.fake.requests.filter((r) => !r.path.startsWith('/blobs/'));
    expect(arm.every((r) => r.authorization === 'Bearer test-token')).toBe(true);
    const blobs = h.fake.requests.filter((r) => r.path.startsWith('/blobs/'));
    expect(blobs.length).toBeGreaterThanOrEqual(2);
    expect(blobs.every((r) => r.authorization === undefined)).toBe(true);
  });

  it('creates the resource group first, then addresses, networks, peerings, security groups, NICs and VMs', () => {
    const order = puts().map((r) => r.path.replace(G, '').replace(/\/subscriptions\/[^/]+\/resourcegroups\//, 'rg:'));
    expect(order[0]).toBe(`rg:${RG}`);
    const first = (part: string) => order.findIndex((p) => p.includes(part));
    const last = (part: string) => order.length - 1 - [...order].reverse().findIndex((p) => p.includes(part));
    expect(last('/publicIPAddresses/')).toBeLessThan(first('/networkSecurityGroups/'));
    expect(last('/virtualNetworkPeerings/')).toBeLessThan(first('/networkSecurityGroups/'));
    expect(last('/networkSecurityGroups/')).toBeLessThan(first('/networkInterfaces/'));
    expect(first('/virtualMachines/')).toBeGreaterThan(first('/networkInterfaces/'));
    expect(order.filter((p) => p.includes('/virtualMachines/'))).toHaveLength(2);
    expect(order.filter((p) => p.includes('/virtualNetworkPeerings/'))).toHaveLength(2);
    expect(order).toHaveLength(1 + 2 + 2 + 2 + 1 + 2 + 2 + 2 + 2); // rg, ips, vnets, asgs, ppg, peerings, nsgs, nics, vms
  });

  it('tags every resource with the run id and names it after the run', () => {
    for (const r of puts()) {
      const b = r.body as Record<string, any>;
      if (r.path.includes('/virtualNetworkPeerings/')) continue; // a child of its VNet: no tags
      expect(b['tags']?.['netbench-run'], r.path).toBe(RUN_ID);
      expect(r.path, r.path).toContain(RG);
    }
    expect(body(`/resourcegroups/${RG}`)).toEqual({ location: 'eastus', tags: { 'netbench-run': RUN_ID, 'netbench-created': expect.any(String), 'managed-by': 'netbench' } });
  });

  it('sends the documented bodies: VNet with its subnet, Standard static public IP, peering, NIC', () => {
    expect(body(`/virtualNetworks/${RG}-eastus`)).toMatchObject({
      location: 'eastus',
      properties: { addressSpace: { addressPrefixes: ['10.100.0.0/16'] }, subnets: [{ name: 'hosts', properties: { addressPrefix: '10.100.0.0/24' } }] },
    });
    expect(body(`/virtualNetworks/${RG}-westeurope`)).toMatchObject({ properties: { addressSpace: { addressPrefixes: ['10.101.0.0/16'] } } });
    expect(body(`/publicIPAddresses/${RG}-client-ip`)).toMatchObject({
      location: 'eastus',
      sku: { name: 'Standard', tier: 'Regional' },
      properties: { publicIPAllocationMethod: 'Static', publicIPAddressVersion: 'IPv4' },
    });
    expect(body(`/virtualNetworks/${RG}-eastus/virtualNetworkPeerings/to-westeurope`)).toEqual({
      properties: { remoteVirtualNetwork: { id: `${NET}/virtualNetworks/${RG}-westeurope` }, allowVirtualNetworkAccess: true },
    });
    expect(body(`/networkInterfaces/${RG}-server-nic`)).toMatchObject({
      location: 'westeurope',
      properties: {
        enableAcceleratedNetworking: false,
        networkSecurityGroup: { id: `${NET}/networkSecurityGroups/${RG}-westeurope-nsg` },
        ipConfigurations: [
          {
            name: 'ipconfig1',
            properties: {
              primary: true,
              privateIPAllocationMethod: 'Dynamic',
              subnet: { id: `${NET}/virtualNetworks/${RG}-westeurope/subnets/hosts` },
              publicIPAddress: { id: `${NET}/publicIPAddresses/${RG}-server-ip` },
              applicationSecurityGroups: [{ id: `${NET}/applicationSecurityGroups/${RG}-westeurope-hosts` }],
            },
          },
        ],
      },
    });
  });

  it("opens SSH to the controller only and tool traffic to the run's own hosts only", () => {
    const nsg = body(`/networkSecurityGroups/${RG}-eastus-nsg`);
    const rules = Object.fromEntries((nsg['properties']['securityRules'] as Record<string, any>[]).map((r) => [r['name'], r['properties']]));
    const asg = [{ id: `${NET}/applicationSecurityGroups/${RG}-eastus-hosts` }];
    expect(rules['netbench-ssh']).toEqual({
      protocol: 'Tcp',
      sourcePortRange: '*',
      destinationPortRange: '22',
      sourceAddressPrefixes: ['198.51.100.7/32'],
      destinationApplicationSecurityGroups: asg,
      access: 'Allow',
      priority: 100,
      direction: 'Inbound',
    });
    expect(rules['netbench-run-hosts']).toMatchObject({
      protocol: '*',
      sourceApplicationSecurityGroups: asg,
      destinationApplicationSecurityGroups: asg,
      access: 'Allow',
      priority: 110,
    });
    expect(rules['netbench-run-other-locations']).toMatchObject({ sourceAddressPrefixes: ['10.101.0.0/16'], priority: 120 });
    expect(rules['netbench-run-external']).toMatchObject({ sourceAddressPrefixes: ['127.0.0.1/32'], priority: 130 });
    expect(rules['netbench-deny-vnet']).toMatchObject({ access: 'Deny', sourceAddressPrefix: 'VirtualNetwork', priority: 4000 });
    expect(Object.keys(rules)).toHaveLength(5);
  });

  it('creates Ubuntu LTS VMs with the size, zone, placement group, key and boot diagnostics asked for', () => {
    const client = body(`/virtualMachines/${RG}-client`);
    expect(client).toMatchObject({
      location: 'eastus',
      zones: ['1'],
      properties: {
        hardwareProfile: { vmSize: 'Standard_D2s_v5' },
        storageProfile: {
          imageReference: { publisher: 'Canonical', offer: 'ubuntu-24_04-lts', sku: 'server', version: 'latest' },
          osDisk: { createOption: 'FromImage', deleteOption: 'Delete' },
        },
        osProfile: { computerName: `${RG}-client`, adminUsername: USER, linuxConfiguration: { disablePasswordAuthentication: true } },
        networkProfile: { networkInterfaces: [{ id: `${NET}/networkInterfaces/${RG}-client-nic`, properties: { primary: true } }] },
        diagnosticsProfile: { bootDiagnostics: { enabled: true } },
        proximityPlacementGroup: { id: `${G}/providers/Microsoft.Compute/proximityPlacementGroups/${RG}-eastus-ppg` },
      },
    });
    expect(client['properties']['osProfile']['linuxConfiguration']['ssh']['publicKeys'][0]['keyData']).toMatch(/^ssh-ed25519 /);
    const server = body(`/virtualMachines/${RG}-server`);
    expect(server['zones']).toBeUndefined();
    expect(server['properties']['proximityPlacementGroup']).toBeUndefined();
  });

  it('follows each long-running operation through Azure-AsyncOperation to Succeeded, then reads the resource', () => {
    const polls = h.fake.requests.filter((r) => r.path.startsWith('/operations/'));
    const lro = puts().filter(
      (r) => !r.path.toLowerCase().includes(`/resourcegroups/${RG.toLowerCase()}?`) && !r.path.endsWith(`/resourcegroups/${RG}`) && !r.path.includes('proximityPlacementGroups'),
    );
    expect(polls).toHaveLength(lro.length * 2); // InProgress, then Succeeded
    const gets = h.fake.requests.filter((r) => r.method === 'GET' && !r.path.startsWith('/operations/') && !r.path.startsWith('/blobs/') && !r.path.endsWith('/skus'));
    expect(gets).toHaveLength(lro.length); // the final GET of each
    expect(new Set(puts().map((r) => r.query['api-version'])).size).toBeGreaterThan(1); // each service its own api-version
  });

  it('pins the host key printed in the boot diagnostics log and reaches the hosts over SSH', async () => {
    const diag = h.fake.requests.filter((r) => r.path.endsWith('/retrieveBootDiagnosticsData'));
    expect(diag).toHaveLength(2);
    expect(diag[0]!.query['sasUriExpirationTimeInMinutes']).toBe('10');
    expect(hosts.map((host) => host.hostKeyVerification)).toEqual(['pinned', 'pinned']);
    expect(hosts[0]!.labels).toMatchObject({ host_key: 'pinned:azure-boot-diagnostics', placement: 'proximity', accelerated_networking: 'true' });
    expect(hosts.map((host) => [host.id, host.zone, host.region, host.machineType, host.externalIp])).toEqual([
      ['client', 'eastus-1', 'eastus', 'Standard_D2s_v5', '127.0.0.1'],
      ['server', 'westeurope', 'westeurope', 'Standard_D4s_v5', '127.0.0.1'],
    ]);
    expect(hosts.every((host) => /^10\.100\.0\.\d+$/.test(host.internalIp))).toBe(true);
    expect((await hosts[0]!.exec(['echo', 'x y'])).stdout).toBe('x y\n');
  });

  it('records every resource in the ledger before creating it, the resource group first', () => {
    const entries = h.ledger.entries;
    const intents = entries.filter((e) => e.phase === 'intent');
    expect(intents[0]!.resource).toMatchObject({ type: 'azure-resource-group', id: G });
    expect(intents).toHaveLength(puts().length);
    for (const intent of intents) {
      const created = entries.findIndex((e) => e.phase === 'created' && e.resource.id === intent.resource.id);
      expect(created).toBeGreaterThan(entries.indexOf(intent));
    }
  });

  it('uses a bounded number of API calls per host', () => {
    const arm = h.fake.requests.filter((r) => !r.path.startsWith('/blobs/'));
    console.log(
      `azure: ${arm.length} Resource Manager calls for 2 hosts in 2 locations (${arm.length / 2} per host; ${arm.filter((r) => r.path.startsWith('/operations/')).length} LRO polls) + ${h.fake.requests.length - arm.length} blob reads`,
    );
    expect(arm.length / 2).toBeLessThanOrEqual(40);
  });
});
