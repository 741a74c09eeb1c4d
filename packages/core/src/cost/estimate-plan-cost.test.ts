import type { TrialSpec } from '@netbench/plugin-api';
import { definePlugin, z } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import { createPlan } from '../plan/create-plan.js';
import { staticRegistry } from '../registry/static-registry.js';
import { labCloud } from '../spec/__fixtures__/test-plugins.js';
import { loadSpec } from '../spec/load-spec.js';
import { CostLimitError, enforceMaxCost } from './cost-limit.js';
import { estimatePlanCost } from './estimate-plan-cost.js';
import { planUsage } from './plan-usage.js';

// A tool whose `bulk` test sends one way at an optional rate, and a cloud that
// charges $1 per host-hour plus $0.5 per GB its hosts send: real plugins, tiny price model.
const bulkSchema = z.strictObject({ direction: z.enum(['forward', 'reverse', 'both']).default('forward'), rate: z.number().optional(), duration: z.number().default(100) });
const bulkTool = definePlugin({
  kind: 'tool',
  name: 'bulk',
  schema: bulkSchema,
  trials: (p): TrialSpec[] => [
    { test: 'rr', params: {}, estimatedSeconds: 10 },
    { test: 'bulk', params: { direction: p.direction }, estimatedSeconds: p.duration, traffic: { direction: p.direction, ...(p.rate ? { bitsPerSecond: p.rate } : {}) } },
  ],
  check: async () => ({ version: '1', features: {} }),
  run: async () => ({ samples: [] }),
  parse: () => [],
});
const paidCloud = definePlugin({
  kind: 'cloud',
  name: 'paid',
  hostSchema: z.strictObject({ zone: z.string(), machineType: z.string().default('big') }),
  provision: async () => [],
  teardown: async () => {},
  estimateCost(requests, usage) {
    const ids = new Set(requests.map((r) => r.id));
    const hours = requests.reduce((sum, r) => sum + (usage.hostSeconds[r.id] ?? 0) / 3600, 0);
    const gb = usage.flows.filter((f) => ids.has(f.from)).reduce((sum, f) => sum + ((f.bitsPerSecond ?? 8e9) * f.seconds) / 8e9, 0);
    return {
      usd: hours + gb * 0.5,
      items: [
        { description: 'hours', quantity: hours, unit: 'instance-hour', unitPriceUsd: 1, usd: hours },
        { description: 'egress', quantity: gb, unit: 'GB', unitPriceUsd: 0.5, usd: gb * 0.5 },
      ],
      priceTableDate: '2026-01-01',
    };
  },
});
const flowsBulkTool = definePlugin({ ...bulkTool, name: 'flows-bulk', flows: { intervals: false, combine: () => 'sum' as const } });
const registry = staticRegistry([bulkTool, flowsBulkTool, paidCloud, labCloud]);

async function plan(text: string) {
  const { spec } = await loadSpec({ text, file: 'cost.yaml' }, registry);
  return createPlan(spec, registry);
}

const SPEC = `name: cost
hosts:
  a: { cloud: paid, zone: z1 }
  b: { cloud: paid, zone: z2 }
  lab: { cloud: local }
benchmarks:
  - { tool: bulk, client: a, server: b, direction: both, rate: 8000000000, duration: 100 }
  - { tool: bulk, client: lab, server: a, direction: reverse }
`;

describe('plan cost', () => {
  it("carries the tools' traffic onto planned trials and turns it into flows", async () => {
    const p = await plan(SPEC);
    expect(p.trials.filter((t) => t.traffic).map((t) => [t.client, t.server, t.traffic?.direction])).toEqual([
      ['a', 'b', 'both'],
      ['lab', 'a', 'reverse'],
    ]);
    const usage = planUsage(p, { fixedSeconds: 100, perTrialSeconds: 5 });
    // 100 s fixed + 220 s measuring + 4 trials × 5 s = 340 s for every host.
    expect(usage.hostSeconds).toEqual({ a: 340, b: 340, lab: 340 });
    expect(usage.flows).toEqual([
      { from: 'a', to: 'b', seconds: 100, bitsPerSecond: 8e9 },
      { from: 'b', to: 'a', seconds: 100, bitsPerSecond: 8e9 },
      { from: 'a', to: 'lab', seconds: 100 },
    ]);
  });

  it("counts every host of an N-host flows fleet and each flow's traffic on its own pair", async () => {
    const p = await plan(
      `name: mesh\nhosts:\n  a: { cloud: paid, zone: z1 }\n  b: { cloud: paid, zone: z1 }\n  c: { cloud: paid, zone: z2 }\nbenchmarks:\n  - { tool: flows-bulk, flows: { topology: mesh, hosts: [a, b, c] }, rate: 8000000000, duration: 100 }\n`,
    );
    const usage = planUsage(p, { fixedSeconds: 100, perTrialSeconds: 5 });
    // 100 s fixed + 110 s measuring (the flows run at once) + 2 trials × 5 s.
    expect(usage.hostSeconds).toEqual({ a: 220, b: 220, c: 220 });
    expect(usage.flows.map((f) => `${f.from}>${f.to} ${f.seconds}`)).toEqual(['a>b 100', 'a>c 100', 'b>a 100', 'b>c 100', 'c>a 100', 'c>b 100']);
    const cost = await estimatePlanCost(p, registry, { fixedSeconds: 100, perTrialSeconds: 5 });
    // 3 hosts × 220 s = $0.18, and 6 flows × 100 GB × $0.5 = $300 (in cents).
    expect(cost.usd).toBe(300.18);
  });

  it("sums every cloud's estimate; a cloud without a cost model is listed as free", async () => {
    const cost = await estimatePlanCost(await plan(SPEC), registry, { fixedSeconds: 100, perTrialSeconds: 5 });
    const paid = cost.clouds.find((c) => c.cloud === 'paid')!;
    // 2 hosts × 340 s = 0.1889 h; a sends 100 GB to b and 100 GB (at the 8 Gbit/s default) to lab, b 100 GB to a: 300 GB × $0.5.
    expect(paid.estimate?.usd).toBeCloseTo(680 / 3600 + 150, 6);
    expect(paid.hosts).toEqual([
      { machineType: 'big', zone: 'z1', count: 1 },
      { machineType: 'big', zone: 'z2', count: 1 },
    ]);
    expect(cost.clouds.find((c) => c.cloud === 'local')).toMatchObject({ note: 'no charge', hosts: [{ zone: 'lab-a', count: 1 }] });
    expect(cost.usd).toBe(150.19);
    expect(cost.hostSeconds).toBe(340);
    expect(() => enforceMaxCost(cost, 200)).not.toThrow();
    expect(() => enforceMaxCost(cost, 150)).toThrow(CostLimitError);
    try {
      enforceMaxCost(cost, 150);
    } catch (error) {
      expect((error as CostLimitError).exitCode).toBe(6);
      expect((error as Error).message).toMatch(/\$150\.19 is above --max-cost \$150\.00: nothing was created/);
    }
  });
});
