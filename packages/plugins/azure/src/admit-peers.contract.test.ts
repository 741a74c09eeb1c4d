// Contract tests of admitPeers and of the teardown of what it adds: the real
// @azure/arm-network SDK against the local Resource Manager stand-in
// (test-support/fake-arm.ts), pinning the exact requests (method, path,
// api-version, JSON body) and how the documented answers are read.

import type { PeerHost, ProvisionContext } from '@netbench/plugin-api';
import { type LedgerResource, NetbenchError, UnsupportedError } from '@netbench/plugin-api';
import { closedPort } from '@netbench/plugin-api/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, harness, RUN_ID, requests, SUBSCRIPTION } from './test-support/harness.js';

const RG = `nb-${RUN_ID}`;
const G = `/subscriptions/${SUBSCRIPTION}/resourceGroups/${RG}`;
const NET = `${G}/providers/Microsoft.Network`;
const NSG = (location: string) => `${NET}/networkSecurityGroups/${RG}-${location}-nsg`;
const ASG = (location: string) => `${NET}/applicationSecurityGroups/${RG}-${location}-hosts`;
const RULE = (location: string, name = 'peers') => `${NSG(location)}/securityRules/${RG}-${name}`;
const PEERS: PeerHost[] = [
  { id: 'gcp-vm', cloud: 'gcp', addresses: ['203.0.113.10', '10.128.0.5'] },
  { id: 'onprem', cloud: 'static', addresses: ['2001:DB8::7'] },
];

let h: Harness;
let infos: string[];
beforeEach(async () => {
  h = await harness();
  infos = [];
});
afterEach(async () => {
  await h.close();
});

const ctx = (): ProvisionContext => ({ ...h.ctx(), log: { debug() {}, info: (m) => infos.push(m), warn: (m) => h.warnings.push(m) } });

/** Provision hosts whose SSH never answers: every network resource exists and is in the ledger, as after a provision. */
async function provisioned(blocks: Record<string, Record<string, unknown>> = { a: { zone: 'eastus-1', hostKeys: 'tofu' }, b: { zone: 'westeurope', hostKeys: 'tofu' } }) {
  const plugin = h.plugin({ sshPort: await closedPort() });
  await plugin.provision(requests(blocks), h.ctx()).catch(() => undefined);
  expect(h.ledger.entries.filter((e) => e.resource.type === 'azure-nsg' && e.phase === 'created')).toHaveLength(
    new Set(Object.values(blocks).map((b) => String(b['zone']).replace(/-\d$/, ''))).size,
  );
  return { plugin, mark: h.fake.requests.length };
}

const since = (mark: number) => h.fake.requests.slice(mark);
const ruleBody = (location: string, sources: string[], priority: number) => ({
  properties: {
    description: `netbench run ${RUN_ID}: its hosts on other clouds`,
    protocol: '*',
    sourcePortRange: '*',
    destinationPortRange: '*',
    sourceAddressPrefixes: sources,
    destinationApplicationSecurityGroups: [{ id: ASG(location) }],
    access: 'Allow',
    direction: 'Inbound',
    priority,
  },
});

describe('azure admitPeers against the Resource Manager REST contract', () => {
  it("PUTs one rule per address family into each location's security group, following each operation to its end", async () => {
    const { plugin, mark } = await provisioned();
    await plugin.admitPeers!(PEERS, ctx());
    const calls = since(mark);

    for (const location of ['eastus', 'westeurope']) {
      const mine = calls.filter((r) => r.path.startsWith(NSG(location)));
      expect(mine.map((r) => `${r.method} ${r.path.replace(NSG(location), 'NSG')}`)).toEqual([
        'GET NSG',
        `PUT NSG/securityRules/${RG}-peers`,
        `GET NSG/securityRules/${RG}-peers`,
        `PUT NSG/securityRules/${RG}-peers-v6`,
        `GET NSG/securityRules/${RG}-peers-v6`,
      ]);
      expect(mine.every((r) => r.query['api-version'] === '2026-01-01')).toBe(true);
      const [v4, v6] = mine.filter((r) => r.method === 'PUT');
      // The run's own hosts have 100 (SSH), 110, 120, 130 and 4000: the first free priority is 140.
      expect(v4!.body).toEqual(ruleBody(location, ['203.0.113.10/32', '10.128.0.5/32'], 140));
      expect(v6!.body).toEqual(ruleBody(location, ['2001:db8::7/128'], 141));
      expect([v4!.status, v6!.status]).toEqual([201, 201]);
    }

    // Each PUT answered 201 + Azure-AsyncOperation: polled (InProgress, Succeeded), then the rule read back.
    for (const put of calls.filter((r) => r.method === 'PUT')) {
      const after = calls.slice(calls.indexOf(put) + 1);
      const read = after.findIndex((r) => r.method === 'GET' && r.path === put.path);
      const polls = after.slice(0, read).filter((r) => r.path.startsWith('/operations/'));
      expect(polls.length).toBeGreaterThanOrEqual(2);
      expect(polls.every((r) => r.query['location'] === undefined && r.query['api-version'] === '2026-04-01')).toBe(true);
    }
    expect(calls.filter((r) => r.path.startsWith('/operations/'))).toHaveLength(4 * 2);

    // The security group now lists the rules next to the ones provision made.
    const rule = h.fake.resources.get(RULE('eastus'))!;
    expect(rule['properties']).toMatchObject({ priority: 140, provisioningState: 'Succeeded' });
    expect(infos.filter((m) => m.startsWith('azure: admitted'))).toHaveLength(4);
    expect(infos).toContain(`azure: admitted 203.0.113.10/32, 10.128.0.5/32 (gcp-vm (gcp), onprem (static)) to ${RG}-eastus-nsg: rule ${RG}-peers, priority 140`);
  });

  it('records each rule in the ledger before its PUT, as a resource teardown deletes on its own', async () => {
    const { plugin } = await provisioned({ a: { zone: 'eastus', hostKeys: 'tofu' } });
    const before = h.ledger.entries.length;
    await plugin.admitPeers!([PEERS[0]!], ctx());
    const added = h.ledger.entries.slice(before);
    expect(added.map((e) => [e.phase, e.resource])).toEqual([
      ['intent', { type: 'azure-nsg-rule', id: RULE('eastus'), data: { location: 'eastus' } }],
      ['created', { type: 'azure-nsg-rule', id: RULE('eastus'), data: { location: 'eastus' } }],
    ]);
    // A refused PUT still leaves the intent (then `failed`): see the AuthorizationFailed test below.
  });

  it('is idempotent: called again it PUTs the same rule at its own priority (200), keeping the sources already admitted', async () => {
    const { plugin } = await provisioned({ a: { zone: 'eastus', hostKeys: 'tofu' } });
    await plugin.admitPeers!([PEERS[0]!], ctx());
    const mark = h.fake.requests.length;
    await plugin.admitPeers!([PEERS[0]!, { id: 'aws-vm', cloud: 'aws', addresses: ['198.51.100.20'] }], ctx());
    const puts = since(mark).filter((r) => r.method === 'PUT');
    expect(puts.map((r) => [r.path, r.status])).toEqual([[RULE('eastus'), 200]]);
    expect(puts[0]!.body).toEqual(ruleBody('eastus', ['203.0.113.10/32', '10.128.0.5/32', '198.51.100.20/32'], 140));
    const rules = [...h.fake.resources.keys()].filter((k) => k.includes('/securityRules/'));
    expect(rules).toEqual([RULE('eastus')]);
  });

  it('takes the first priority no rule of the group uses (the stand-in refuses a taken one, as Azure does)', async () => {
    const { plugin } = await provisioned({ a: { zone: 'eastus', hostKeys: 'tofu' } });
    for (const [name, priority, direction] of [
      ['user-140', 140, 'Inbound'],
      ['user-141', 141, 'Inbound'],
      ['user-out-142', 142, 'Outbound'],
    ] as const) {
      const id = `${NSG('eastus')}/securityRules/${name}`;
      h.fake.resources.set(id, {
        id,
        name,
        type: 'Microsoft.Network/networkSecurityGroups/securityRules',
        properties: {
          protocol: 'Tcp',
          access: 'Allow',
          direction,
          priority,
          sourceAddressPrefix: '*',
          destinationAddressPrefix: '*',
          sourcePortRange: '*',
          destinationPortRange: '443',
        },
      });
    }
    const mark = h.fake.requests.length;
    await plugin.admitPeers!(PEERS, ctx());
    const puts = since(mark).filter((r) => r.method === 'PUT');
    expect(puts.map((r) => (r.body as { properties: { priority: number } }).properties.priority)).toEqual([143, 144]);
  });

  it('maps a refused PUT (403 AuthorizationFailed) to UnsupportedError naming the permission; the failed rule stays in the ledger', async () => {
    const { plugin } = await provisioned({ a: { zone: 'eastus', hostKeys: 'tofu' } });
    h.fake.faults.push({
      method: 'PUT',
      path: /\/securityRules\//,
      http: {
        status: 403,
        code: 'AuthorizationFailed',
        message: `The client 'bench@example.com' with object id '1111' does not have authorization to perform action 'Microsoft.Network/networkSecurityGroups/securityRules/write' over scope '${RULE('eastus')}' or the scope is invalid.`,
      },
    });
    const error = await plugin.admitPeers!([PEERS[0]!], ctx()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedError);
    expect((error as Error).message).toMatch(/^admitting peers to network security group nb-.*-eastus-nsg: .*does not have authorization.*securityRules\/write/);
    expect((error as Error).message).toContain('Network Contributor');
    expect(h.ledger.entries.at(-1)).toMatchObject({ phase: 'failed', resource: { type: 'azure-nsg-rule', id: RULE('eastus') } });
  });

  it('maps a failed operation and a missing security group to errors naming the group', async () => {
    const { plugin } = await provisioned({ a: { zone: 'eastus', hostKeys: 'tofu' } });
    h.fake.faults.push({ method: 'PUT', path: /\/securityRules\//, operationError: { code: 'InternalServerError', message: 'An error occurred.' } });
    const failed = await plugin.admitPeers!([PEERS[0]!], ctx()).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(NetbenchError);
    expect((failed as Error).message).toMatch(/^admitting peers to network security group nb-.*-eastus-nsg: .*(InternalServerError|An error occurred)/);

    h.fake.resources.delete(NSG('eastus'));
    const gone = await plugin.admitPeers!([PEERS[0]!], ctx()).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(NetbenchError);
    expect((gone as Error).message).toMatch(/network security group .*was not found/);
  });

  it('makes no call when no peer address can reach Azure (names, loopback, link-local)', async () => {
    const { plugin, mark } = await provisioned({ a: { zone: 'eastus', hostKeys: 'tofu' } });
    await plugin.admitPeers!([{ id: 'lab', cloud: 'static', addresses: ['bench.example.com', '127.0.0.1', 'fe80::1', '::1'] }], ctx());
    expect(since(mark)).toEqual([]);
    expect(infos).toContain('azure: not admitting bench.example.com of lab: not an IP address');
    expect(infos.at(-1)).toBe('azure: no peer address to admit');
  });
});

describe('azure teardown of an admitted rule', () => {
  const teardown = async (plugin: ReturnType<Harness['plugin']>, resources: readonly LedgerResource[]) => {
    for (const resource of resources) await plugin.teardown(resource, h.ctx());
  };

  it('DELETEs the rule (from its ledger entry alone), then the resource group; a second pass finds everything gone', async () => {
    const { plugin } = await provisioned({ a: { zone: 'eastus', hostKeys: 'tofu' } });
    await plugin.admitPeers!([PEERS[0]!], ctx());
    const pending = JSON.parse(JSON.stringify(h.ledger.pending())) as LedgerResource[];
    expect(pending[0]).toEqual({ type: 'azure-nsg-rule', id: RULE('eastus'), data: { location: 'eastus' } });

    const mark = h.fake.requests.length;
    await teardown(h.plugin(), pending);
    const deletes = since(mark).filter((r) => r.method === 'DELETE');
    expect(deletes.map((r) => [r.path, r.query['api-version'], r.status])).toEqual([
      [RULE('eastus'), '2026-01-01', 202],
      [`/subscriptions/${SUBSCRIPTION}/resourcegroups/${RG}`, expect.any(String), 202],
    ]);
    // The rule's delete (202) is followed through Azure-AsyncOperation (InProgress, Succeeded) before the group's starts.
    const calls = since(mark);
    const groupDelete = calls.findIndex((r) => r.method === 'DELETE' && r.path.endsWith(RG));
    expect(calls.slice(1, groupDelete).map((r) => [r.method, r.path.split('/')[1], r.query['location']])).toEqual([
      ['GET', 'operations', undefined],
      ['GET', 'operations', undefined],
    ]);
    expect(h.fake.resources.size).toBe(0);

    // The resource group is gone: the rule's DELETE answers 404 ResourceGroupNotFound, which is success.
    const again = h.fake.requests.length;
    await teardown(plugin, pending);
    expect(since(again).map((r) => [r.method, r.status])).toEqual([
      ['DELETE', 404],
      ['DELETE', 404],
    ]);
  });

  it('treats a rule already deleted (204) and a security group already gone (404 ParentResourceNotFound) as success', async () => {
    const { plugin } = await provisioned({ a: { zone: 'eastus', hostKeys: 'tofu' } });
    await plugin.admitPeers!([PEERS[0]!], ctx());
    const rule = h.ledger.pending()[0]!;
    h.fake.resources.delete(RULE('eastus'));
    let mark = h.fake.requests.length;
    await plugin.teardown(rule, h.ctx());
    expect(since(mark).map((r) => [r.method, r.path, r.status])).toEqual([['DELETE', RULE('eastus'), 204]]);

    h.fake.resources.delete(NSG('eastus'));
    mark = h.fake.requests.length;
    await plugin.teardown(rule, h.ctx());
    expect(since(mark).map((r) => [r.method, r.status])).toEqual([['DELETE', 404]]);
  });

  it('reports any other failure to delete the rule', async () => {
    const { plugin } = await provisioned({ a: { zone: 'eastus', hostKeys: 'tofu' } });
    await plugin.admitPeers!([PEERS[0]!], ctx());
    h.fake.faults.push({
      method: 'DELETE',
      path: /\/securityRules\//,
      http: { status: 409, code: 'AnotherOperationInProgress', message: 'Another operation on this or dependent resource is in progress.' },
    });
    await expect(plugin.teardown(h.ledger.pending()[0]!, h.ctx())).rejects.toThrow(/Another operation/);
  });
});
