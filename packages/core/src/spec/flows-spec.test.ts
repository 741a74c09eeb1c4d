import type { AnyPlugin } from '@netbench/plugin-api';
import { describe, expect, test } from 'vitest';
import flowTool from '../engine/flows/__fixtures__/flow-tool.js';
import { SpecError } from '../issues/spec-error.js';
import { createPlan } from '../plan/create-plan.js';
import { staticRegistry } from '../registry/static-registry.js';
import { labCloud, pingTool } from './__fixtures__/test-plugins.js';
import { loadSpec } from './load-spec.js';

const registry = staticRegistry([labCloud, flowTool, pingTool] as AnyPlugin[]);
const HOSTS = 'name: f\nhosts:\n  c: { cloud: local }\n  s1: { cloud: local }\n  s2: { cloud: local }\nbenchmarks:\n';

async function problems(benchmarks: string): Promise<string[]> {
  try {
    await loadSpec({ text: HOSTS + benchmarks, file: 'spec.yaml' }, registry);
  } catch (error) {
    expect(error).toBeInstanceOf(SpecError);
    return (error as SpecError).message.split('\n');
  }
  throw new Error('the spec loaded, but it should have failed');
}

describe('flows in a spec', () => {
  test('unknown and repeated hosts, a flow to itself, and a tool without flows point at their nodes', async () => {
    expect(await problems('  - tool: flow-echo\n    flows: { topology: one-to-many, client: c, servers: [s1, s9] }\n')).toEqual([
      "spec.yaml:8:62  benchmarks.0.flows.servers.1  unknown host 's9' (did you mean 's1'?); hosts: c, s1, s2",
    ]);
    expect(await problems('  - tool: flow-echo\n    flows: { topology: mesh, hosts: [c, s1, c] }\n')).toEqual([
      'spec.yaml:8:37  benchmarks.0.flows.hosts  hosts must be different',
    ]);
    expect(await problems('  - tool: flow-echo\n    flows: { topology: bidirectional, host: c, peers: [s1, c] }\n')).toEqual([
      "spec.yaml:8:60  benchmarks.0.flows.peers.1  a flow needs two different hosts ('c' would measure itself)",
    ]);
    expect(await problems('  - tool: ping\n    flows: { topology: pairs, pairs: [{ client: c, server: s1 }] }\n')).toEqual([
      "spec.yaml:8:12  benchmarks.0.flows  tool 'ping' cannot run synchronized flows (its plugin does not declare `flows`)",
    ]);
  });

  test('flows and a client/server pair exclude each other; a topology is one of four', async () => {
    expect(await problems('  - tool: flow-echo\n    client: c\n    flows: { topology: mesh, hosts: [c, s1] }\n')).toEqual([
      'spec.yaml:8:13  benchmarks.0.client  give either client and its partner or flows, not both',
    ]);
    const [line] = await problems('  - tool: flow-echo\n    flows: { topology: ring, hosts: [c, s1] }\n');
    expect(line).toMatch(/^spec\.yaml:8:\d+  benchmarks\.0\.flows\.topology  .*one-to-many, mesh, bidirectional or pairs/);
  });

  test('a mesh plans every ordered pair as a flow of one trial, and the fleet once', async () => {
    const { spec } = await loadSpec({ text: `${HOSTS}  - tool: flow-echo\n    flows: { topology: mesh, hosts: [c, s1, s2] }\n`, file: 'spec.yaml' }, registry);
    const plan = await createPlan(spec, registry);
    expect(plan.fleet.map((h) => h.id)).toEqual(['c', 's1', 's2']);
    expect(plan.trials).toHaveLength(1);
    expect(plan.trials[0]!.flows!.map((f) => f.label)).toEqual(['c->s1', 'c->s2', 's1->c', 's1->s2', 's2->c', 's2->s1']);
    expect([plan.trials[0]!.client, plan.trials[0]!.server]).toEqual(['c', 's1']);
  });
});
