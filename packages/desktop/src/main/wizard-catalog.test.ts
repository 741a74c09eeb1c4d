import { join } from 'node:path';
import { createRegistry, staticRegistry } from '@netbench/core';
import { type CloudCatalog, definePlugin, z } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import { createDesktopApi } from './desktop-api.js';
import { dispatchCall } from './dispatch-call.js';
import { cloudCatalog, wizardCatalog } from './wizard-catalog.js';

// Real plugin objects made with definePlugin, served by core's staticRegistry:
// one cloud with a catalog, one without (as local, static and most
// third-party clouds), and two whose catalog() misbehaves.
const hostSchema = z.strictObject({ zone: z.string(), machineType: z.string() });
const cloudBase = {
  kind: 'cloud' as const,
  version: '1.2.3',
  hostSchema,
  // These tests never provision: the wizard only reads the catalog.
  provision: async () => {
    throw new Error('not provisioned in these tests');
  },
  teardown: async () => {},
};
const CATALOG: CloudCatalog = {
  date: '2026-10-01',
  regions: [
    { name: 'north-1', zones: ['north-1a', 'north-1b'] },
    { name: 'south-2', zones: ['south-2a'] },
  ],
  machineTypes: [
    { name: 'std.small', vcpus: 2, memoryGib: 8, family: 'general purpose' },
    { name: 'net.large', vcpus: 16, memoryGib: 64, family: 'network optimized' },
    { name: 'odd.one' },
  ],
};
let catalogCalls = 0;
const withCatalog = definePlugin({
  ...cloudBase,
  name: 'listed',
  catalog: () => {
    catalogCalls++;
    return CATALOG;
  },
});
const withoutCatalog = definePlugin({ ...cloudBase, name: 'unlisted' });
const badCatalog = definePlugin({
  ...cloudBase,
  name: 'badlist',
  catalog: () => ({ date: 'last year', regions: [{ name: 'r', zones: 'r-a' }], machineTypes: [] }) as unknown as CloudCatalog,
});
const throwingCatalog = definePlugin({
  ...cloudBase,
  name: 'throwing',
  catalog: () => {
    throw new Error('price table missing');
  },
});
const registry = staticRegistry([withCatalog, withoutCatalog, badCatalog, throwingCatalog]);

describe('the wizard catalog from cloud plugins', () => {
  it('lists installed clouds and tools without asking any cloud for its catalog', async () => {
    const catalog = await wizardCatalog(registry);
    expect(catalog.clouds.map((c) => c.cloud)).toEqual(['listed', 'unlisted', 'badlist', 'throwing']);
    expect(catalog.clouds[0]).toEqual({ cloud: 'listed', installed: true, version: '1.2.3' });
    expect(catalog.tools).toEqual([
      { name: 'ping', installed: false },
      { name: 'netperf', installed: false },
      { name: 'iperf3', installed: false },
    ]);
    expect(catalogCalls).toBe(0);
  });

  it("returns a picked cloud's own catalog: dated regions → zones, machine types with vCPUs and memory", async () => {
    const answer = await cloudCatalog(registry, 'listed');
    expect(catalogCalls).toBe(1);
    expect(answer.catalog).toEqual(CATALOG);
  });

  it('answers null for a cloud without catalog(): the wizard takes free text', async () => {
    expect(await cloudCatalog(registry, 'unlisted')).toEqual({ catalog: null });
  });

  it('names the plugin when its catalog is malformed or throws, and refuses an unknown cloud', async () => {
    await expect(cloudCatalog(registry, 'badlist')).rejects.toThrow(/\[plugin badlist\] catalog\(\) returned an invalid list: date/);
    await expect(cloudCatalog(registry, 'throwing')).rejects.toThrow('[plugin throwing] catalog: price table missing');
    await expect(cloudCatalog(registry, 'nowhere')).rejects.toThrow(/no cloud plugin named nowhere/);
  });

  it('goes through the validated bridge: the cloud name is checked before any plugin is imported', async () => {
    const desktop = createDesktopApi({ registry, version: 'test', shell: 'browser', specsDir: '/nonexistent-netbench-specs' });
    expect(await dispatchCall(desktop.api, 'cloudCatalog', { cloud: 'listed' })).toEqual({ ok: true, value: { catalog: CATALOG } });
    expect(await dispatchCall(desktop.api, 'cloudCatalog', { cloud: '../../evil' })).toMatchObject({ ok: false, error: { name: 'ValidationError' } });
    expect(await dispatchCall(desktop.api, 'cloudCatalog', { cloud: 'listed', extra: 1 })).toMatchObject({ ok: false, error: { name: 'ValidationError' } });
    expect(await dispatchCall(desktop.api, 'cloudCatalog', { cloud: 'throwing' })).toMatchObject({ ok: false, error: { message: expect.stringContaining('price table missing') } });
  });
});

describe('the built-in plugins', () => {
  const repo = join(import.meta.dirname, '../../../..');
  const builtins = createRegistry({ searchDirs: [join(repo, 'packages/cli')], userPlugins: false });

  it('local and static have no catalog (free text); aws returns its dated list', async () => {
    expect(await cloudCatalog(builtins, 'local')).toEqual({ catalog: null });
    expect(await cloudCatalog(builtins, 'static')).toEqual({ catalog: null });
    const { catalog } = await cloudCatalog(builtins, 'aws');
    expect(catalog?.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(catalog?.regions.find((r) => r.name === 'us-east-1')?.zones).toContain('us-east-1a');
    expect(catalog?.machineTypes.find((m) => m.name === 'm5.large')).toMatchObject({ vcpus: 2, memoryGib: 8 });
  });
});
