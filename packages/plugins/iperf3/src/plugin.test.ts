import { isPlugin, z } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import plugin from './index.js';

describe('the iperf3 plugin package', () => {
  it('default-exports a branded tool plugin named as package.json declares', async () => {
    const pkg = (await import('../package.json', { with: { type: 'json' } })).default;
    expect(isPlugin(plugin)).toBe(true);
    expect(plugin.kind).toBe(pkg.netbench.kind);
    expect(plugin.name).toBe(pkg.netbench.name);
    expect(plugin.version).toBe(pkg.version);
  });

  it('has a block schema that exports to JSON Schema for editors', () => {
    const json = z.toJSONSchema(plugin.schema, { io: 'input' }) as { properties: Record<string, unknown>; additionalProperties: boolean };
    expect(Object.keys(json.properties).sort()).toEqual([
      'bidir',
      'bitrate',
      'congestion',
      'cpus',
      'duration',
      'interval',
      'length',
      'mss',
      'omit',
      'protocol',
      'reverse',
      'streams',
      'window',
      'zerocopy',
    ]);
    expect(json.additionalProperties).toBe(false);
  });
});
