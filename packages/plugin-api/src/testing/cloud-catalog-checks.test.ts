// The kit's checks of catalog() and admitPeers: good clouds pass, each way of breaking the contract is named.
import { describe, expect, it } from 'vitest';
import type { CloudCatalog, PeerHost, ProvisionContext } from '../plugin/cloud.js';
import { definePlugin } from '../plugin/define-plugin.js';
import { z } from '../plugin/zod.js';
import { processHost } from '../transport/process-host.js';
import { catalogProblems, cloudCatalogChecks, latestDateOnEarth } from './cloud-catalog-checks.js';
import { cloudConformance } from './cloud-conformance.js';
import type { ConformanceCheck } from './conformance-check.js';

const GOOD: CloudCatalog = {
  date: '2025-06-01',
  regions: [
    { name: 'r1', zones: ['r1a', 'r1b'] },
    { name: 'r2', zones: ['r2a'] },
    { name: 'solo', zones: [] },
  ],
  machineTypes: [{ name: 'small', vcpus: 2, memoryGib: 0.5, family: 'general' }, { name: 'shared', vcpus: 0.25 }, { name: 'bare' }],
};

type Members = { catalog?: unknown; admitPeers?: unknown };
const cloud = (members: Members) =>
  definePlugin({
    kind: 'cloud',
    name: 'kit-catalog',
    hostSchema: z.strictObject({}),
    async provision(requests) {
      return requests.map((r) => processHost({ id: r.id, name: r.name, cloud: 'kit-catalog', internalIp: '127.0.0.1' }));
    },
    async teardown() {},
    ...(members as object),
  });

/** The failure message of each check that fails, by check name. */
async function failures(checks: readonly ConformanceCheck[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const c of checks)
    await c.run().catch((error: Error) => {
      out[c.name] = error.message;
    });
  return out;
}
const failText = async (members: Members) => Object.values(await failures(cloudCatalogChecks(() => cloud(members)))).join('\n');
const catalogWith = (patch: Partial<Record<keyof CloudCatalog, unknown>>) => ({ catalog: () => ({ ...GOOD, ...patch }) });

describe('cloudCatalogChecks', () => {
  it('passes a cloud with a good catalog and admitPeers, and one with neither (both are optional)', async () => {
    const admitPeers = async (peers: readonly PeerHost[], ctx: ProvisionContext) => ctx.log.info(`${peers.length}`);
    expect(await failures(cloudCatalogChecks(() => cloud({ catalog: () => GOOD, admitPeers })))).toEqual({});
    expect(await failures(cloudCatalogChecks(() => cloud({ admitPeers: async () => {} })))).toEqual({});
    expect(await failures(cloudCatalogChecks(() => cloud({})))).toEqual({});
  });

  it('is part of cloudConformance and fails there under its own name', async () => {
    const checks = cloudConformance(cloud({ catalog: async () => GOOD }), { module: 'unused.js', goneResources: [] });
    const ours = checks.filter((c) => /^(catalog|admitPeers) /.test(c.name));
    expect(ours.map((c) => c.name)).toEqual(cloudCatalogChecks(() => cloud({})).map((c) => c.name));
    expect(Object.values(await failures(ours))).toEqual([expect.stringMatching(/returned a promise/)]);
  });

  it('wants the list itself, at once: not a promise, not a throw, not a non-function', async () => {
    expect(await failText({ catalog: async () => GOOD })).toMatch(/catalog\(\) returned a promise: return the list itself/);
    expect(await failText({ catalog: () => ({ then: () => {} }) })).toMatch(/returned a promise/);
    expect(
      await failText({
        catalog: () => {
          throw new Error('no data file');
        },
      }),
    ).toMatch(/catalog\(\) threw Error: no data file/);
    expect(await failText({ catalog: GOOD })).toMatch(/catalog must be a function, not object/);
    expect(await failText({ catalog: () => [GOOD] })).toMatch(/not \{ date, regions, machineTypes \}/);
  });

  it('wants an ISO date of a real day that is not in the future', async () => {
    for (const date of ['June 2025', '2025-6-1', '2025-02-30', '2025-13-01', '2025-06-01T00:00:00Z', 20250601, undefined]) {
      expect(await failText(catalogWith({ date }))).toMatch(/is not an ISO date \(YYYY-MM-DD\)/);
    }
    const tomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    expect(await failText(catalogWith({ date: tomorrow }))).toMatch(new RegExp(`date ${tomorrow} is in the future`));
    expect(catalogProblems({ ...GOOD, date: '2026-03-02' }, '2026-03-01')).toEqual(['date 2026-03-02 is in the future (today is 2026-03-01 at most)']);
    expect(catalogProblems({ ...GOOD, date: '2026-03-01' }, '2026-03-01')).toEqual([]);
  });

  it('dates today by the time zone furthest ahead, so no author is ever told their today is the future', () => {
    const now = Date.parse('2026-03-01T10:00:00Z');
    expect(latestDateOnEarth(now)).toBe('2026-03-02'); // already the 2nd in Kiribati (UTC+14)
    expect(latestDateOnEarth(Date.parse('2026-03-01T09:59:59Z'))).toBe('2026-03-01');
  });

  it('wants regions: non-empty, named once each, and zones that name one place', async () => {
    expect(await failText(catalogWith({ regions: [] }))).toMatch(/regions must be a non-empty list/);
    expect(
      await failText(
        catalogWith({
          regions: [
            { name: 'r1', zones: ['a'] },
            { name: 'r1', zones: ['b'] },
          ],
        }),
      ),
    ).toMatch(/region r1 is listed twice/);
    expect(
      await failText(
        catalogWith({
          regions: [
            { name: 'r1', zones: ['a', 'b'] },
            { name: 'r2', zones: ['b'] },
          ],
        }),
      ),
    ).toMatch(/zone b of region r2 is also listed under region r1/);
    expect(await failText(catalogWith({ regions: [{ name: 'r1', zones: ['a', 'a'] }] }))).toMatch(/zone a of region r1 is also listed under region r1/);
    expect(await failText(catalogWith({ regions: [{ zones: ['a'] }, { name: 'r2' }, { name: 'r3', zones: [''] }] }))).toMatch(
      /regions\[0\] has no name.*region r2 has no zones list.*region r3 has a zone "" that is not a name/,
    );
  });

  it('wants machine types: non-empty, named once each, vcpus and memoryGib positive when given', async () => {
    expect(await failText(catalogWith({ machineTypes: [] }))).toMatch(/machineTypes must be a non-empty list/);
    expect(await failText(catalogWith({ machineTypes: [{ name: 'm' }, { name: 'm', vcpus: 2 }] }))).toMatch(/machine type m is listed twice/);
    const bad = await failText(
      catalogWith({
        machineTypes: [
          { name: 'zero', vcpus: 0 },
          { name: 'neg', memoryGib: -1 },
          { name: 'nan', vcpus: Number.NaN },
          { name: 'text', memoryGib: '4' },
          { name: 'fam', family: '' },
          { vcpus: 2 },
        ],
      }),
    );
    for (const expected of [
      'machine type zero has vcpus 0',
      'machine type neg has memoryGib -1',
      'machine type nan has vcpus NaN',
      'machine type text has memoryGib "4"',
      'machine type fam has family ""',
      'machineTypes[5] has no name',
    ]) {
      expect(bad).toContain(expected);
    }
  });

  it('lists at most ten problems and counts the rest', async () => {
    const machineTypes = Array.from({ length: 13 }, () => ({ name: 'same' }));
    expect(await failText(catalogWith({ machineTypes }))).toMatch(/(machine type same is listed twice; ){9}machine type same is listed twice; and 2 more$/);
  });

  it('wants admitPeers to take (peers, ctx) and calls nothing', async () => {
    let called = false;
    const three = (_peers: unknown, _ctx: unknown, _extra: unknown) => {
      called = true;
      return Promise.resolve();
    };
    expect(await failText({ admitPeers: three })).toMatch(/admitPeers declares 3 parameters: the engine passes two \(peers, ctx\)/);
    expect(await failText({ admitPeers: 'open everything' })).toMatch(/admitPeers must be a function, not string/);
    expect(called).toBe(false);
  });
});
