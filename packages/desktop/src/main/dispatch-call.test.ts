import { join } from 'node:path';
import { createRegistry } from '@netbench/core';
import { describe, expect, it } from 'vitest';
import { createDesktopApi } from './desktop-api.js';
import { dispatchCall } from './dispatch-call.js';

const repo = join(import.meta.dirname, '../../../..');
const desktop = createDesktopApi({
  registry: createRegistry({ searchDirs: [join(repo, 'packages/cli')], userPlugins: false }),
  version: 'test',
  shell: 'browser',
  specsDir: '/nonexistent-netbench-specs',
});

describe('dispatchCall: validated bridge calls', () => {
  it('refuses unknown methods and malformed arguments before any handler runs', async () => {
    expect(await dispatchCall(desktop.api, 'constructor', {})).toMatchObject({ ok: false, error: { name: 'BridgeError' } });
    expect(await dispatchCall(desktop.api, '__proto__', {})).toMatchObject({ ok: false, error: { name: 'BridgeError' } });
    const traversal = await dispatchCall(desktop.api, 'readSpec', { source: 'example', name: '../../etc/passwd.yaml' });
    expect(traversal).toMatchObject({ ok: false, error: { name: 'ValidationError' } });
    const extra = await dispatchCall(desktop.api, 'cancelRun', { runId: 'x', evil: true });
    expect(extra.ok ? '' : extra.error.message).toContain('evil');
    const huge = await dispatchCall(desktop.api, 'checkSpec', { text: 'x'.repeat(1_000_001) });
    expect(huge.ok).toBe(false);
    expect(await dispatchCall(desktop.api, 'listRuns', { status: 'bogus' })).toMatchObject({ ok: false });
  });

  it("takes a GCP project and Azure subscription only in the plugins' own form, never anything else", async () => {
    const answers = (accounts: Record<string, string>) => ({
      name: 'acct',
      question: 'latency',
      tools: ['ping'],
      durationSeconds: 1,
      sites: [{ kind: 'local' }, { kind: 'local' }],
      accounts,
    });
    const bad = await dispatchCall(desktop.api, 'generateSpec', answers({ gcpProject: 'Bad Project!', azureSubscription: 'not-a-uuid' }));
    expect(bad.ok).toBe(false);
    const message = bad.ok ? '' : bad.error.message;
    expect(message).toMatch(/a GCP project id/);
    expect(message).toMatch(/an Azure subscription id: a UUID/);
    // A secret is not an account field at all.
    expect(await dispatchCall(desktop.api, 'generateSpec', answers({ gcpProject: 'my-project-1', azureKey: 'secret' }))).toMatchObject({
      ok: false,
      error: { name: 'ValidationError' },
    });
    expect(await dispatchCall(desktop.api, 'generateSpec', answers({ gcpProject: 'my-project-1' }))).toMatchObject({ ok: true });
  });

  it('checks a spec text: every issue with line:col, or the plan and its cost', async () => {
    const bad = await dispatchCall(desktop.api, 'checkSpec', {
      text: 'name: x\nhosts:\n  a: { cloud: local }\nbenchmarks:\n  - { tool: ping, client: a, server: nope, count: 0 }\nextra: 1\n',
    });
    expect(bad.ok).toBe(true);
    const check = bad.ok ? (bad.value as { ok: boolean; issues: { line: number; col: number; path: string }[] }) : undefined;
    expect(check?.ok).toBe(false);
    expect(check?.issues.map((i) => `${i.line}:${i.path}`)).toEqual(expect.arrayContaining(['6:extra']));
    expect(check?.issues.length).toBeGreaterThanOrEqual(2);

    const good = await desktop.api.checkSpec({
      text: 'name: x\nhosts:\n  a: { cloud: local }\n  b: { cloud: local }\nbenchmarks:\n  - { tool: ping, client: a, server: b, count: 5 }\n',
      maxCostUsd: 0,
    });
    expect(good).toMatchObject({ ok: true, overBudget: false, cost: { usd: 0 } });
    expect(good.ok && good.plan.trials.length).toBe(2);
  });

  it('refuses to start an invalid spec, returning its issues', async () => {
    const result = await dispatchCall(desktop.api, 'startRun', { text: 'name: x\nhosts: {}\nbenchmarks: []\n' });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.name).toBe('SpecError');
    expect(!result.ok && result.error.issues?.length).toBeGreaterThan(0);
    expect(desktop.runs.active()).toEqual([]);
  });

  it('lists example specs with their titles and reads one', async () => {
    const specs = await desktop.api.listSpecs({});
    const quickstart = specs.find((s) => s.name === 'quickstart.yaml');
    expect(quickstart).toMatchObject({ source: 'example', title: expect.stringContaining('Latency') });
    expect((await desktop.api.readSpec({ source: 'example', name: 'quickstart.yaml' })).text).toContain('tool: iperf3');
  });

  it("offers the installed clouds without importing them, then one cloud's zones and machine types from its plugin", async () => {
    const started = Date.now();
    const catalog = await desktop.api.catalog({});
    expect(Date.now() - started).toBeLessThan(5000);
    expect(catalog.clouds.map((c) => c.cloud)).toEqual(expect.arrayContaining(['aws', 'gcp', 'azure', 'local', 'static']));
    expect(catalog.tools).toEqual(expect.arrayContaining([{ name: 'ping', installed: true }]));
    const aws = await dispatchCall(desktop.api, 'cloudCatalog', { cloud: 'aws' });
    const zones = aws.ok ? (aws.value as { catalog: { regions: { name: string; zones: string[] }[] } }).catalog.regions.flatMap((r) => r.zones) : [];
    expect(zones).toContain('us-east-1a');
  });

  it('refuses malformed label selections and save requests', async () => {
    const base = { baseline: [{ key: 'zone', value: 'a' }], candidate: [{ key: 'zone', value: 'b' }] };
    for (const bad of [
      { ...base, baseline: [] },
      { ...base, candidate: [{ key: 'a=b', value: 'c' }] },
      { ...base, candidate: [{ key: 'zone', value: 'b', extra: 1 }] },
      { ...base, baseline: Array.from({ length: 21 }, () => ({ key: 'k', value: 'v' })) },
    ])
      expect(await dispatchCall(desktop.api, 'compareSelections', bad)).toMatchObject({ ok: false, error: { name: 'ValidationError' } });
    const file = { fileName: 'run.csv', mimeType: 'text/csv', content: 'a,b\n', encoding: 'utf8' };
    for (const bad of [
      { ...file, fileName: '../run.csv' },
      { ...file, fileName: '/etc/passwd' },
      { ...file, fileName: '.bashrc' },
      { ...file, encoding: 'hex' },
    ]) {
      expect(await dispatchCall(desktop.api, 'saveFile', bad)).toMatchObject({ ok: false, error: { name: 'ValidationError' } });
    }
    // A browser saves through its downloads: without Electron's dialog the main process writes nothing.
    expect(await dispatchCall(desktop.api, 'saveFile', file)).toMatchObject({ ok: false, error: { message: expect.stringContaining('downloaded') } });
  });
});
