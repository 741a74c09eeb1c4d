// Type test: the resolver narrows plugins to the kind asked for.

import type { CloudPlugin, ToolPlugin } from '@netbench/plugin-api';
import { describe, expectTypeOf, it } from 'vitest';
import type { PluginResolver } from './types.js';

describe('PluginResolver', () => {
  it('narrows get() to the kind asked for', () => {
    const resolver = {} as PluginResolver;
    expectTypeOf(resolver.get('cloud', 'x')).resolves.toEqualTypeOf<CloudPlugin<unknown> | undefined>();
    expectTypeOf(resolver.get('tool', 'x')).resolves.toEqualTypeOf<ToolPlugin<unknown> | undefined>();
  });
});
