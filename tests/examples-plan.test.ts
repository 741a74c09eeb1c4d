import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createPlan, createRegistry, loadSpec, placementFacts, placementWarnings, planSpec } from '@netbench/core';
import { describe, expect, test } from 'vitest';
import { repoRoot } from './helpers/cli.js';

describe('scenario examples (examples/*.yaml) validate and plan', () => {
  const registry = createRegistry({ searchDirs: [join(repoRoot, 'packages/cli')], userPlugins: false });
  // trials, cells, fleet hosts: the counts each example's header comment explains.
  const EXAMPLES: Readonly<Record<string, [number, number, number]>> = {
    'whitepaper-cross-cloud.yaml': [5, 1, 2],
    'whitepaper-network-tiers.yaml': [8, 2, 3],
    'whitepaper-onprem-to-cloud.yaml': [5, 1, 2],
    'whitepaper-iperf-zones-regions.yaml': [4, 2, 3],
    'whitepaper-custom-cidr.yaml': [4, 1, 2],
    'whitepaper-packets-per-second.yaml': [10, 1, 3],
    'pps-aggregate.yaml': [2, 1, 4],
    'mesh.yaml': [2, 1, 4],
    'bidirectional.yaml': [1, 1, 3],
    'whitepaper-intra-zone.yaml': [7, 1, 2],
    'whitepaper-inter-zone.yaml': [72, 6, 6],
    'whitepaper-inter-region.yaml': [380, 190, 38],
    'container-netperf.yaml': [8, 1, 2],
    'kubernetes-netperf.yaml': [42, 1, 6],
    'docker-containers.yaml': [5, 1, 3],
    'latency-cluster-and-inter-region.yaml': [2, 1, 3],
    'latency-ping-vs-netperf.yaml': [3, 1, 2],
    'linux-network-evaluation.yaml': [6, 1, 2],
    'http-sweeps.yaml': [70, 1, 2],
    'http-zone-to-zone.yaml': [78, 6, 6],
    'http-zone-to-zone-aws.yaml': [78, 6, 6],
    'http-zone-to-zone-azure.yaml': [78, 6, 6],
    'gcp-interzone-quick-test.yaml': [20, 4, 5],
    'quickstart.yaml': [5, 1, 2],
    'shaped-link.yaml': [1, 1, 2],
    'bufferbloat.yaml': [4, 1, 4],
    'long-study.yaml': [6, 2, 3],
    'interval-sweep.yaml': [8, 1, 2],
    'link-queues.yaml': [3, 1, 4],
    'tunnels.yaml': [36, 1, 2],
  };

  test('every example is listed', () => {
    expect(
      readdirSync(join(repoRoot, 'examples'))
        .filter((f) => f.endsWith('.yaml'))
        .sort(),
    ).toEqual(Object.keys(EXAMPLES).sort());
  });

  test.each(Object.entries(EXAMPLES))('%s', async (file, [trials, cells, fleet]) => {
    const { spec } = await loadSpec({ file: join(repoRoot, 'examples', file) }, registry);
    const plan = await createPlan(spec, registry);
    expect([plan.trials.length, plan.cells, plan.fleet.length]).toEqual([trials, cells, fleet]);
    expect(spec.description ?? '').not.toBe('');
  });

  // An example that warns about itself teaches people to ignore warnings: none of netbench's own, on this machine,
  // and none about CPU placement on a 2-CPU one whatever this machine has (both ends of a lab trial share its CPUs).
  test.each(Object.keys(EXAMPLES))('%s plans without a warning of its own', async (file) => {
    const { plan, warnings } = await planSpec({ file: join(repoRoot, 'examples', file), registry });
    expect(warnings).toEqual([]);
    expect(placementWarnings(plan, 2, await placementFacts(plan, registry))).toEqual([]);
  });

  test('the packets-per-second example is one trial of flows to both servers per burst step', async () => {
    const { spec } = await loadSpec({ file: join(repoRoot, 'examples/whitepaper-packets-per-second.yaml') }, registry);
    const plan = await createPlan(spec, registry);
    expect(plan.trials.map((t) => t.params.burst)).toEqual([0, 1, 2, 4, 8, 16, 32, 64, 128, 256]);
    expect(plan.trials.every((t) => t.search?.metric === 'UDP_RR_Transaction_Rate')).toBe(true);
    expect(plan.trials.map((t) => t.flows?.map((f) => f.server).join(','))).toEqual(Array(10).fill('server_1,server_2'));
  });
});
