import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { TestResolver } from '../spec/__fixtures__/test-plugins.js';
import { loadSpec } from '../spec/load-spec.js';
import { createPlan } from './create-plan.js';

const example = (name: string) => fileURLToPath(new URL(`../../../../examples/${name}`, import.meta.url));
const GCP_WARNING = "cloud 'gcp' needs @netbench/plugin-gcp, which is not installed; its fields were not checked";

async function planExample(name: string) {
  const resolver = new TestResolver();
  const { spec, warnings } = await loadSpec({ file: example(name) }, resolver);
  expect(warnings).toEqual([GCP_WARNING]);
  return createPlan(spec, resolver);
}

describe('whitepaper examples load and plan', () => {
  test('intra-zone: two VMs in one zone; netperf 3 tests, ping both ways, iperf3 1 and 32 streams', async () => {
    const plan = await planExample('whitepaper-intra-zone.yaml');
    expect(plan.cells).toBe(1);
    expect(plan.fleet.map((h) => [h.id, h.config])).toEqual([
      ['vm1', { zone: 'us-central1-a', machineType: 'n1-standard-4' }],
      ['vm2', { zone: 'us-central1-a', machineType: 'n1-standard-4' }],
    ]);
    expect(plan.trials.map((t) => `${t.tool}:${t.test}`)).toEqual(['netperf:TCP_RR', 'netperf:TCP_STREAM', 'netperf:UDP_RR', 'ping:icmp', 'ping:icmp', 'iperf3:tcp', 'iperf3:tcp']);
  });

  test('inter-zone: the fmatrix gives 72 trials on 6 VMs', async () => {
    const plan = await planExample('whitepaper-inter-zone.yaml');
    expect(plan.cells).toBe(6);
    expect(plan.trials).toHaveLength(72);
    expect(plan.fleet).toHaveLength(6);
    expect(plan.fleet[0]).toEqual({ id: 'vm1@zone=us-west1-a', name: 'vm1', cloud: 'gcp', config: { zone: 'us-west1-a', machineType: 'n1-standard-16' } });
    expect(plan.trials.every((t) => t.cell.zone !== t.cell.extra_zone)).toBe(true);
  });

  test('inter-region: 20 zones, zone < extra_zone gives 190 cells, pinged both ways', async () => {
    const plan = await planExample('whitepaper-inter-region.yaml');
    expect(plan.cells).toBe(190);
    expect(plan.trials).toHaveLength(380);
    expect(plan.fleet).toHaveLength(38);
    expect(plan.estimatedSeconds).toBe(380 * 60);
  });
});
