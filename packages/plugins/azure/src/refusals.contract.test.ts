// What Azure refuses or answers "busy" to, against the Resource Manager
// stand-in (test-support/fake-arm.ts): peerings created in parallel that see
// the other VNet still updating, sizes without accelerated networking, one
// proximity placement group across zones. No SSH: the lab port is closed.

import { closedPort } from '@netbench/plugin-api/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkPlacement } from './placement-check.js';
import { type Harness, harness, requests } from './test-support/harness.js';

const BUSY = (vnet: string) => ({
  status: 400,
  code: 'ReferencedResourceNotProvisioned',
  message: `Cannot proceed with operation because resource ${vnet} used by resource to-westeurope is not in Succeeded state. Resource is in Updating state and the last operation that updated/is updating the resource is PutVirtualNetworkPeeringOperation.`,
});

describe('azure refusals and retries', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness();
  });
  afterEach(() => h?.close());
  const provision = async (blocks: Record<string, Record<string, unknown>>) => {
    const plugin = h.plugin({ sshPort: await closedPort() });
    return plugin.provision(requests(blocks), h.ctx()).catch((error: unknown) => error);
  };
  const peeringPuts = () => h.fake.requests.filter((r) => r.method === 'PUT' && r.path.includes('/virtualNetworkPeerings/'));

  it('retries a peering Azure refuses with ReferencedResourceNotProvisioned (HTTP and in the operation) and ledgers it once', async () => {
    h.fake.faults.push({ method: 'PUT', path: /virtualNetworkPeerings\/to-westeurope$/, http: BUSY('eastus'), times: 2 });
    h.fake.faults.push({
      method: 'PUT',
      path: /virtualNetworkPeerings\/to-eastus$/,
      operationError: { code: 'ReferencedResourceNotProvisioned', message: BUSY('westeurope').message },
      times: 1,
    });
    await provision({ a: { zone: 'eastus', hostKeys: 'tofu' }, b: { zone: 'westeurope', hostKeys: 'tofu' } });
    const toWest = peeringPuts().filter((r) => r.path.endsWith('/to-westeurope'));
    const toEast = peeringPuts().filter((r) => r.path.endsWith('/to-eastus'));
    expect(toWest.map((r) => r.status)).toEqual([400, 400, 201]);
    expect(toEast.map((r) => r.status)).toEqual([201, 200]);
    expect(h.ledger.entries.filter((e) => e.resource.type === 'azure-vnet-peering' && e.phase === 'intent')).toHaveLength(2);
    expect(h.ledger.entries.filter((e) => e.resource.type === 'azure-vnet-peering' && e.phase === 'created')).toHaveLength(2);
    expect(h.warnings.filter((w) => /ReferencedResourceNotProvisioned|not in Succeeded state/.test(w) && /retrying/.test(w)).length).toBe(3);
    // The run got past the network (to the VMs).
    expect(h.fake.requests.some((r) => r.method === 'PUT' && r.path.includes('/virtualMachines/'))).toBe(true);
  });

  it('does not retry other peering errors', async () => {
    h.fake.faults.push({ method: 'PUT', path: /virtualNetworkPeerings\/to-westeurope$/, http: { status: 400, code: 'VnetAddressSpacesOverlap', message: 'overlap' }, times: 5 });
    const outcome = await provision({ a: { zone: 'eastus', hostKeys: 'tofu' }, b: { zone: 'westeurope', hostKeys: 'tofu' } });
    expect(String(outcome)).toMatch(/overlap/);
    expect(peeringPuts().filter((r) => r.path.endsWith('/to-westeurope'))).toHaveLength(1);
  });

  it('names the fix when the size cannot have accelerated networking', async () => {
    h.fake.faults.push({
      method: 'PUT',
      path: /virtualMachines\//,
      http: {
        status: 400,
        code: 'VMSizeIsNotPermittedToEnableAcceleratedNetworking',
        message: 'Virtual Machine size Standard_B1s is not in the allowed list of VM sizes for accelerated networking to be enabled on the VM at index 0.',
      },
    });
    const outcome = await provision({ small: { zone: 'eastus', machineType: 'Standard_B1s', acceleratedNetworking: true, hostKeys: 'tofu' } });
    expect(String(outcome)).toMatch(/Standard_B1s does not support accelerated networking .*set acceleratedNetworking: false on host small/);
  });

  it("decides accelerated networking from the size's Resource SKUs capability when the spec leaves it out", async () => {
    await provision({
      small: { zone: 'eastus', machineType: 'Standard_B1s', hostKeys: 'tofu' },
      big: { zone: 'eastus', machineType: 'Standard_D4s_v5', hostKeys: 'tofu' },
      off: { zone: 'eastus', machineType: 'Standard_D4s_v5', acceleratedNetworking: false, hostKeys: 'tofu' },
      unlisted: { zone: 'eastus', machineType: 'Standard_X9s_v9', hostKeys: 'tofu' },
    });
    const skus = h.fake.requests.filter((r) => r.path.endsWith('/providers/Microsoft.Compute/skus'));
    expect(skus.map((r) => r.query['$filter'])).toEqual(["location eq 'eastus'"]);
    const nic = (host: string) => (h.fake.requests.find((r) => r.method === 'PUT' && r.path.endsWith(`-${host}-nic`))!.body as any).properties.enableAcceleratedNetworking;
    expect([nic('small'), nic('big'), nic('off'), nic('unlisted')]).toEqual([false, true, false, true]);
  });

  it('leaves accelerated networking on, with a warning, when the sizes cannot be read', async () => {
    h.fake.faults.push({ method: 'GET', path: /\/skus$/, http: { status: 403, code: 'AuthorizationFailed', message: 'no read on Microsoft.Compute/skus' } });
    await provision({ small: { zone: 'eastus', machineType: 'Standard_B1s', hostKeys: 'tofu' } });
    expect(h.warnings.join('\n')).toMatch(/could not read which sizes have accelerated networking in eastus \(.*403.*\); leaving it on/);
    expect((h.fake.requests.find((r) => r.method === 'PUT' && r.path.endsWith('-small-nic'))!.body as any).properties.enableAcceleratedNetworking).toBe(true);
  });

  it('refuses one proximity placement group across availability zones before creating anything', async () => {
    const blocks = { a: { zone: 'eastus-1', placement: 'proximity' }, b: { zone: 'eastus-2', placement: 'proximity' } };
    expect(() => checkPlacement(requests(blocks))).toThrow(/a \(eastus-1\), b \(eastus-2\) share the proximity placement group of eastus but are in different availability zones/);
    const outcome = await provision(blocks);
    expect(String(outcome)).toMatch(/different availability zones/);
    expect(h.fake.requests).toHaveLength(0);
    // One zone, or other locations, or no placement: fine.
    expect(() =>
      checkPlacement(
        requests({
          a: { zone: 'eastus-1', placement: 'proximity' },
          b: { zone: 'eastus-1', placement: 'proximity' },
          c: { zone: 'westeurope-2', placement: 'proximity' },
          d: { zone: 'eastus-3' },
        }),
      ),
    ).not.toThrow();
  });
});
