// Type tests pinning the plugin contract: what a plugin author writes must
// type-check (with inferred block types), what breaks the contract must not.
import { describe, expectTypeOf, it } from 'vitest';
import type { LedgerResource } from '../ledger/types.js';
import type { CloudPlugin, HostRequest } from './cloud.js';
import { PLUGIN_API_VERSION, PLUGIN_BRAND, type PluginKind } from './common.js';
import { type AnyPlugin, type Branded, definePlugin, isPlugin } from './define-plugin.js';
import type { Host } from './host.js';
import type { PublisherPlugin } from './publisher.js';
import type { ToolPlugin, TrialSpec } from './tool.js';
import { z } from './zod.js';

declare const host: Host;

const toolSchema = z.strictObject({
  count: z.int().default(10),
  mode: z.enum(['a', 'b']).optional(),
});

describe('definePlugin infers block types from the zod schema', () => {
  it("types a tool's trials(params) and parse", () => {
    const tool = definePlugin({
      kind: 'tool',
      name: 't',
      schema: toolSchema,
      trials(params) {
        expectTypeOf(params).toEqualTypeOf<{ count: number; mode?: 'a' | 'b' | undefined }>();
        return [{ test: 'x', params: { count: params.count }, estimatedSeconds: params.count }];
      },
      async check() {
        return { version: '1', features: {} };
      },
      async run(trial, ctx) {
        expectTypeOf(trial.client).toEqualTypeOf<Host>();
        expectTypeOf(ctx.saveRaw).toBeFunction();
        return { samples: this.parse('', { source: trial.id }) };
      },
      parse: (raw) => [{ metric: 'm', value: raw.length, unit: 'count' }],
    });
    expectTypeOf(tool.kind).toEqualTypeOf<'tool'>();
    expectTypeOf(tool.trials).parameter(0).toEqualTypeOf<{ count: number; mode?: 'a' | 'b' | undefined }>();
    expectTypeOf(tool.apiVersion).toEqualTypeOf<number>();
    expectTypeOf(tool).toExtend<ToolPlugin<{ count: number }>>();
    expectTypeOf(tool).toExtend<AnyPlugin>();
  });

  it("types a cloud's provision requests from hostSchema", () => {
    const cloud = definePlugin({
      kind: 'cloud',
      name: 'c',
      hostSchema: z.strictObject({ zone: z.string(), size: z.int().default(1) }),
      async provision(requests, ctx) {
        expectTypeOf(requests).toEqualTypeOf<readonly HostRequest<{ zone: string; size: number }>[]>();
        expectTypeOf(requests[0]!.config.zone).toEqualTypeOf<string>();
        expectTypeOf(ctx.ledger.track).toBeFunction();
        return requests.map(() => host);
      },
      async teardown(resource) {
        expectTypeOf(resource).toEqualTypeOf<LedgerResource>();
      },
    });
    expectTypeOf(cloud.kind).toEqualTypeOf<'cloud'>();
    expectTypeOf(cloud).toExtend<CloudPlugin<{ zone: string; size: number }>>();
  });

  it("types a publisher's settings from schema", () => {
    const publisher = definePlugin({
      kind: 'publisher',
      name: 'p',
      schema: z.strictObject({ file: z.string().optional(), pretty: z.boolean().default(false) }),
      async publish(run, samples, settings) {
        expectTypeOf(settings).toEqualTypeOf<{ file?: string | undefined; pretty: boolean }>();
        expectTypeOf(run.runId).toEqualTypeOf<string>();
        return { count: samples.length };
      },
    });
    expectTypeOf(publisher).toExtend<PublisherPlugin<{ pretty: boolean }>>();
  });

  it('still accepts an explicitly typed plugin (backwards compatible)', () => {
    type Params = { n: number };
    const explicit = definePlugin<ToolPlugin<Params>>({
      kind: 'tool',
      name: 'e',
      schema: z.strictObject({ n: z.number() }),
      trials: (p): TrialSpec[] => [{ test: 't', params: { n: p.n }, estimatedSeconds: 0 }],
      check: async () => ({ version: '1', features: {} }),
      run: async () => ({ samples: [] }),
      parse: () => [],
    });
    expectTypeOf(explicit).toEqualTypeOf<Branded<ToolPlugin<Params>>>();
    const annotated: CloudPlugin<{ zone: string }> = {
      kind: 'cloud',
      name: 'a',
      hostSchema: z.strictObject({ zone: z.string() }),
      provision: async () => [],
      teardown: async () => {},
    };
    expectTypeOf(definePlugin(annotated)).toExtend<Branded<CloudPlugin<{ zone: string }>>>();
  });
});

describe('definePlugin rejects what breaks the contract', () => {
  it('refuses a tool whose trials read a field the schema does not have', () => {
    definePlugin({
      kind: 'tool',
      name: 'bad',
      schema: toolSchema,
      // @ts-expect-error: `nope` is not in the schema
      trials: (params) => [{ test: params.nope, params: {}, estimatedSeconds: 0 }],
      check: async () => ({ version: '1', features: {} }),
      run: async () => ({ samples: [] }),
      parse: () => [],
    });
  });

  it('refuses a tool without parse, a cloud without teardown, an unknown kind', () => {
    // @ts-expect-error: parse is required (netbench import reuses it)
    definePlugin({ kind: 'tool', name: 'x', schema: toolSchema, trials: () => [], check: async () => ({ version: '1', features: {} }), run: async () => ({ samples: [] }) });
    // @ts-expect-error: teardown is required (the ledger drives it)
    definePlugin({ kind: 'cloud', name: 'x', hostSchema: z.strictObject({}), provision: async () => [] });
    // @ts-expect-error: there is no such kind
    definePlugin({ kind: 'database', name: 'x', schema: z.strictObject({}) });
  });

  it('refuses samples with a non-numeric value', () => {
    definePlugin({
      kind: 'tool',
      name: 'x',
      schema: toolSchema,
      trials: () => [],
      check: async () => ({ version: '1', features: {} }),
      run: async () => ({ samples: [] }),
      // @ts-expect-error: a sample value is a number
      parse: () => [{ metric: 'm', value: '1', unit: 'ms' }],
    });
  });
});

describe('the brand and version', () => {
  it('narrows with isPlugin and exposes the contract constants', () => {
    const value: unknown = {};
    if (isPlugin(value)) {
      expectTypeOf(value.kind).toEqualTypeOf<PluginKind>();
      expectTypeOf(value[PLUGIN_BRAND]).toEqualTypeOf<true>();
    }
    expectTypeOf(PLUGIN_API_VERSION).toEqualTypeOf<number>();
  });
});

describe('typed trial parameters', () => {
  it('types trial.params in run from what trials returns, with no second parse', () => {
    definePlugin({
      kind: 'tool',
      name: 'typed',
      schema: z.strictObject({ count: z.int().default(10), interval: z.number().default(0.2) }),
      trials: (p) => [{ test: 'icmp', params: { count: p.count, interval: p.interval }, estimatedSeconds: p.count * p.interval }],
      async check() {
        return { version: '1', features: {} };
      },
      async run(trial) {
        expectTypeOf(trial.params.count).toEqualTypeOf<number>();
        expectTypeOf(trial.params.interval).toEqualTypeOf<number>();
        // @ts-expect-error: a parameter trials never returns is not there
        void trial.params.size;
        return { samples: [] };
      },
      parse: () => [],
    });
  });
  it("types the optional counters hook: the trial's typed params and its samples in, counters out", () => {
    definePlugin({
      kind: 'tool',
      name: 'counted',
      schema: z.strictObject({ count: z.int().default(10) }),
      trials: (p) => [{ test: 'x', params: { count: p.count }, estimatedSeconds: 1 }],
      async check() {
        return { version: '1', features: {} };
      },
      async run() {
        return { samples: [] };
      },
      parse: () => [],
      counters({ params, samples, server }) {
        expectTypeOf(params.count).toEqualTypeOf<number>();
        expectTypeOf(server.name).toEqualTypeOf<string>();
        return samples.map((s) => ({ name: 'x', value: s.value, unit: s.unit, role: 'server' as const }));
      },
    });
    definePlugin({
      kind: 'tool',
      name: 'bad-counters',
      schema: z.strictObject({}),
      trials: () => [{ test: 'x', params: {}, estimatedSeconds: 1 }],
      async check() {
        return { version: '1', features: {} };
      },
      async run() {
        return { samples: [] };
      },
      parse: () => [],
      // @ts-expect-error: counters are synchronous and pure, not a promise
      counters: async () => [],
    });
  });
});
