// The desktop app's compare view says what its figures are and what was
// tested: medians of runs, n in runs, "not tested: one run each" between two
// single runs (never a verdict's colour), verdicts only with several runs a
// side; the older of two ticked runs is the baseline and the user can swap
// them. Real local-lab runs, real core over the loopback bridge, Debian's
// Chromium. Screenshots go to /tmp/shots/res-stats-*.png.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRegistry } from '@netbench/core';
import { type BrowserServer, createDesktopApi, type DesktopApi, startBrowserServer } from '@netbench/desktop';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, type TestBrowser } from './helpers/chromium.js';

const repo = resolve(import.meta.dirname, '..');
const shots = '/tmp/shots';
const home = mkdtempSync(join(tmpdir(), 'nbt-desktop-replicates-'));
let desktop: DesktopApi;
let server: BrowserServer;
let page: Page;
let testBrowser: TestBrowser | undefined;
const runs: Record<'a' | 'b', string[]> = { a: [], b: [] };

const shot = (name: string) => page.screenshot({ path: join(shots, `res-stats-${name}.png`), fullPage: true });
const spec = (name: string) =>
  [
    `name: ${name}`,
    'hosts:',
    '  a: { cloud: local }',
    '  b: { cloud: local }',
    'benchmarks:',
    '  - { tool: ping, client: a, server: b, count: 20, interval: 0.01, direction: forward }',
    '',
  ].join('\n');

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  desktop = createDesktopApi({
    registry: createRegistry({ searchDirs: [join(repo, 'packages/cli')], userPlugins: false }),
    version: 'test',
    shell: 'browser',
    db: join(home, 'netbench.db'),
    runsDir: join(home, 'runs'),
    specsDir: join(home, 'specs'),
    chooseSavePath: async (file) => join(home, file.fileName),
  });
  server = await startBrowserServer({ api: desktop.api, subscribe: (listener) => desktop.runs.subscribe(listener) });
  // Three runs of each of two specs, one after another: a's are older.
  for (const side of ['a', 'b'] as const) {
    for (let i = 0; i < 3; i += 1) {
      const { runId } = await desktop.api.startRun({ text: spec(`lab-${side}`) });
      expect((await desktop.runs.wait(runId)).status).toBe('succeeded');
      runs[side].push(runId);
    }
  }
  testBrowser = await launchChromium('desktop-replicates');
  page = testBrowser.page;
  await page.goto(server.url);
  await page.getByTestId('runs-table').waitFor();
}, 180_000);

afterAll(async () => {
  await testBrowser?.close();
  await desktop?.dispose();
  await server?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('compare view: replicates, statistics and the baseline', () => {
  it('makes the older of two ticked runs the baseline, whichever was ticked first, and lets the user swap', async () => {
    const [older, newer] = [runs.a[0]!, runs.b[2]!];
    // The newer one first.
    await page.getByLabel(`Select ${newer} to compare`).check();
    await page.getByLabel(`Select ${older} to compare`).check();
    await expect(page.getByTestId('compare-button').innerText()).resolves.toBe('Compare 2/2 selected (older as baseline)');
    await page.getByTestId('compare-button').click();
    await expect.poll(() => page.url()).toContain(`#/compare/${older}/${newer}`);
    const table = page.getByTestId('compare-table');
    await table.waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('compare-baseline-choice').innerText()).toContain(`Baseline: ${older}`);

    // The figures are named: medians of runs, n in runs; and the charts say theirs are means.
    const head = await table.locator('thead').innerText();
    expect(head).toMatch(/baseline median\s+candidate median/);
    const statistics = await table.getByTestId('statistic').allInnerTexts();
    expect(statistics).toEqual(expect.arrayContaining(['median', 'p50 (median)', 'p99 (median)']));
    expect(await table.innerText()).toMatch(/n=1 run\b/);
    expect(await page.getByTestId('charts-statistic').innerText()).toMatch(/mean of each side's samples.*medians of runs/);
    // Under the table: each side's host counters per trial and what limited them (docs/explain.md).
    const counters = page.getByTestId('compare-counters');
    expect(await counters.innerText()).toMatch(/tcp_retrans_segs\s+segments/);
    expect(await counters.getByTestId('compare-limited-by').first().innerText()).toMatch(/^limited by: .+ → .+/);
    // One run each: every row says so in plain text; no verdict, no bootstrap over one run's packets.
    const notTested = await table.getByTestId('not-tested').allInnerTexts();
    expect(notTested.length).toBe(await table.locator('tbody tr').count());
    for (const text of notTested) expect(text).toBe('not tested: one run each');
    await expect(table.locator('.verdict').count()).resolves.toBe(0);
    expect((await table.getByTestId('decided-by').allInnerTexts()).join('')).toBe('');
    expect(await page.getByTestId('compare-repetition-note').innerText()).toMatch(/^Not tested: every row has one run on a side/);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot('compare-runs');

    await page.getByTestId('compare-swap').click();
    await expect.poll(() => page.url()).toContain(`#/compare/${newer}/${older}`);
    await expect.poll(() => page.getByTestId('compare-baseline-choice').innerText()).toContain(`Baseline: ${newer}`);
    await page.getByTestId('compare-table').waitFor({ timeout: 30_000 });
    await shot('compare-runs-swapped');
  });

  it("tests three runs a side on the runs' values, with a verdict and the test that decided", async () => {
    await page.goto(`${server.origin}/#/compare/labels/${encodeURIComponent('spec=lab-a')}/${encodeURIComponent('spec=lab-b')}`);
    const table = page.getByTestId('compare-table');
    await table.waitFor({ timeout: 30_000 });
    expect(await table.innerText()).toMatch(/n=3 runs\b/);
    const verdicts = await table.locator('.verdict').allInnerTexts();
    expect(verdicts.length).toBe(await table.locator('tbody tr').count());
    for (const v of verdicts) expect(['better', 'worse', 'higher', 'lower', 'no significant difference', 'too few repetitions']).toContain(v);
    // Decided on 3 values a side: Welch's t-test on logarithms (or Mann–Whitney with 4 and more), never the pooled packets.
    const decided = (await table.getByTestId('decided-by').allInnerTexts()).filter((d) => d !== '' && d !== '—');
    expect(decided.length).toBeGreaterThan(0);
    for (const d of decided) expect(d).toMatch(/^(Welch t on logs|Mann–Whitney U)/);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot('compare-three-runs');
  });
});
