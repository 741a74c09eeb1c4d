// Type tests pinning the synchronized-flows part of the tool contract.
import { describe, expectTypeOf, it } from 'vitest';
import { definePlugin } from './define-plugin.js';
import type { FlowCombine, FlowContext, FlowSupport, TrialContext } from './tool.js';
import { z } from './zod.js';

describe('a tool takes part in synchronized flows', () => {
  it('declares flows and sees ctx.flow (optional) in run', () => {
    definePlugin({
      kind: 'tool',
      name: 'flowing',
      schema: z.strictObject({}),
      trials: () => [{ test: 'x', params: {}, estimatedSeconds: 1 }],
      check: async () => ({ version: '1', features: {} }),
      flows: { intervals: true, combine: (metric) => (metric === 'rate' ? 'sum' : undefined) },
      async run(_trial, ctx) {
        expectTypeOf(ctx.flow).toEqualTypeOf<FlowContext | undefined>();
        if (ctx.flow) {
          expectTypeOf(ctx.flow.release).returns.toEqualTypeOf<Promise<void>>();
          expectTypeOf(ctx.flow.started).returns.toEqualTypeOf<void>();
          ctx.flow.interval({ metric: 'rate', value: 1, unit: 'per_second' });
        }
        return { samples: [] };
      },
      parse: () => [],
    });
    expectTypeOf<FlowSupport['combine']>().returns.toEqualTypeOf<FlowCombine | undefined>();
    expectTypeOf<TrialContext['flow']>().toEqualTypeOf<FlowContext | undefined>();
  });

  it('refuses a combine that answers something other than sum or mean', () => {
    definePlugin({
      kind: 'tool',
      name: 'bad',
      schema: z.strictObject({}),
      trials: () => [],
      check: async () => ({ version: '1', features: {} }),
      // @ts-expect-error -- 'max' is not a way flows combine
      flows: { intervals: false, combine: () => 'max' },
      run: async () => ({ samples: [] }),
      parse: () => [],
    });
  });
});
