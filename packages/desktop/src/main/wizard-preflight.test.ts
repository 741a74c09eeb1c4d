import { join } from 'node:path';
import { createRegistry } from '@netbench/core';
import { describe, expect, it } from 'vitest';
import { preflightSpec } from './wizard-preflight.js';

const repo = join(import.meta.dirname, '../../../..');
const registry = createRegistry({ searchDirs: [join(repo, 'packages/cli')], userPlugins: false });
const spec = (host: string) => `name: pf
hosts:
  a: { cloud: local${host} }
  b: { cloud: local }
benchmarks:
  - { tool: ping, client: a, server: b, count: 5, interval: 0.2 }
`;

describe("preflightSpec: each cloud's own preflight, before Run", () => {
  it('passes a plain lab and reports an unknown congestion control with the host it names', async () => {
    expect(await preflightSpec(registry, spec(''))).toEqual({ clouds: [{ cloud: 'local', ok: true, detail: '2 host(s) pass' }] });
    const bad = await preflightSpec(registry, spec(', congestionControl: nosuchcc'));
    expect(bad.clouds).toHaveLength(1);
    expect(bad.clouds[0]!.ok).toBe(false);
    // With namespaces: nosuchcc is not among this kernel's; without: it needs a namespace. Either way the host and field are named.
    expect(bad.clouds[0]!.detail).toMatch(/^host a\b/);
    expect(bad.clouds[0]!.detail).toMatch(/nosuchcc|congestion control/i);
  });

  it('reports a spec that does not plan as one finding', async () => {
    const result = await preflightSpec(registry, 'name: x\nhosts: {}\n');
    expect(result.clouds).toHaveLength(1);
    expect(result.clouds[0]).toMatchObject({ cloud: '(spec)', ok: false });
  });
});
