// A third-party cloud that declares its hosts' shaping in its own field names
// gets the plan's shaping column and warnings as the local lab does.

import { type AnyPlugin, definePlugin, processHost, z } from '@netbench/plugin-api';
import { parseRate } from '@netbench/plugin-api/cloud-kit';
import { describe, expect, test } from 'vitest';
import { planWarnings } from '../api/plan-spec.js';
import { ALL_TEST_PLUGINS, TestResolver } from '../spec/__fixtures__/test-plugins.js';
import { loadSpec } from '../spec/load-spec.js';
import { createPlan } from './create-plan.js';
import { hostShaping } from './shaping.js';

const wan = definePlugin({
  kind: 'cloud',
  name: 'wan-emulator',
  hostSchema: z.strictObject({ uplink: z.string().optional(), downlink: z.string().optional() }),
  linkShaping(config) {
    const up = config.uplink !== undefined ? parseRate(config.uplink) : undefined;
    const down = config.downlink !== undefined ? parseRate(config.downlink) : undefined;
    return {
      ...(up !== undefined ? { egress: { bitsPerSecond: up, field: 'uplink', written: config.uplink! } } : {}),
      ...(down !== undefined ? { ingress: { bitsPerSecond: down, field: 'downlink', written: config.downlink! } } : {}),
    };
  },
  async provision(requests) {
    return requests.map((r) => processHost({ id: r.id, name: r.name, cloud: 'wan-emulator', internalIp: '127.0.0.1' }));
  },
  async teardown() {},
});

// A throughput tool: its trials send bulk traffic client → server.
const bulk = definePlugin({
  kind: 'tool',
  name: 'bulk',
  schema: z.strictObject({}),
  trials: () => [{ test: 'stream', params: {}, estimatedSeconds: 5, traffic: { direction: 'forward' as const } }],
  check: async () => ({ version: '1', features: {} }),
  run: async () => ({ samples: [] }),
  parse: () => [],
});

const throws = definePlugin({
  ...wan,
  name: 'broken-shaper',
  linkShaping: () => {
    throw new Error('no rate here');
  },
});

const resolver = new TestResolver([...ALL_TEST_PLUGINS, wan, bulk, throws] as AnyPlugin[]);

async function plan(hosts: string, direction: string) {
  const text = `name: wan
hosts:
${hosts}
benchmarks:
  - tool: bulk
    client: a
    server: b
  - tool: ping
    client: a
    server: b
    direction: ${direction}
`;
  const { spec } = await loadSpec({ text, file: 'wan.yaml' }, resolver);
  return createPlan(spec, resolver);
}

describe('shaping declared by a third-party cloud', () => {
  test('is kept on the fleet host and warned about in its own field names, as the local lab is', async () => {
    const p = await plan('  a: { cloud: wan-emulator }\n  b: { cloud: wan-emulator, uplink: 20mbit, downlink: 5mbit }', 'forward');
    expect(p.fleet.find((h) => h.id === 'b')?.shaping).toEqual({
      egress: { bitsPerSecond: 20e6, field: 'uplink', written: '20mbit' },
      ingress: { bitsPerSecond: 5e6, field: 'downlink', written: '5mbit' },
    });
    expect(hostShaping(p.fleet.find((h) => h.id === 'b')!)?.text).toBe('egress 20 Mbit/s (uplink 20mbit), ingress 5 Mbit/s (downlink 5mbit)');
    // bulk a → b sends towards b: b's ingress is measured, its egress is not.
    expect(planWarnings(p)).toEqual([
      expect.stringMatching(
        /^hosts\.b\.uplink shapes what b sends \(20 Mbit\/s\), but no trial sends bulk traffic from b \(the throughput trials send towards it: a → b\): the shaping is not measured/,
      ),
    ]);
  });

  test('the same shaping on the local lab gives the same warning but for the field name', async () => {
    const local = await plan('  a: { cloud: local }\n  b: { cloud: local, link: { rate: 20mbit } }', 'forward');
    const third = await plan('  a: { cloud: wan-emulator }\n  b: { cloud: wan-emulator, uplink: 20mbit }', 'forward');
    // The core's fixture cloud `local` declares no linkShaping: its `link` is just a field to the plan.
    expect(planWarnings(local)).toEqual([]);
    expect(planWarnings(third)[0]?.replace('hosts.b.uplink', 'hosts.b.link.rate')).toMatch(/^hosts\.b\.link\.rate shapes what b sends/);
  });

  test('a cloud whose declaration throws refuses the plan, naming the plugin and the hook', async () => {
    await expect(plan('  a: { cloud: broken-shaper }\n  b: { cloud: broken-shaper, uplink: 1mbit }', 'forward')).rejects.toThrow(
      /\[plugin broken-shaper\] linkShaping: no rate here/,
    );
  });
});
