// The desktop app's overlay page (flent's *_combine): three real local-lab
// runs ticked in the results list, drawn on one set of charts with a colour
// per run, in headless Chromium against the real core over the loopback
// bridge. Screenshots go to /work/screens (views-overlay-*).
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRegistry } from '@netbench/core';
import { type BrowserServer, createDesktopApi, type DesktopApi, startBrowserServer } from '@netbench/desktop';
import { SERIES_COLORS } from '@netbench/report/echarts';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, type TestBrowser } from './helpers/chromium.js';

const repo = resolve(import.meta.dirname, '..');
const screens = process.env['NETBENCH_SCREENS'] ?? join(repo, 'test-artifacts/desktop');
const home = mkdtempSync(join(tmpdir(), 'nbt-desktop-overlay-'));
let desktop: DesktopApi;
let server: BrowserServer;
let page: Page;
let testBrowser: TestBrowser | undefined;
const runs: string[] = [];

const spec = (name: string) =>
  [
    `name: ${name}`,
    'hosts:',
    '  a: { cloud: local }',
    '  b: { cloud: local }',
    'benchmarks:',
    '  - { tool: ping, client: a, server: b, count: 30, interval: 0.02 }',
    '  - { tool: iperf3, client: a, server: b, duration: 2, interval: 0.5 }',
    '',
  ].join('\n');

beforeAll(async () => {
  mkdirSync(screens, { recursive: true });
  desktop = createDesktopApi({
    registry: createRegistry({ searchDirs: [join(repo, 'packages/cli')], userPlugins: false }),
    version: 'test',
    shell: 'browser',
    db: join(home, 'netbench.db'),
    runsDir: join(home, 'runs'),
    specsDir: join(home, 'specs'),
  });
  server = await startBrowserServer({ api: desktop.api, subscribe: (listener) => desktop.runs.subscribe(listener) });
  for (const name of ['overlay-1', 'overlay-2', 'overlay-3']) {
    const { runId } = await desktop.api.startRun({ text: spec(name) });
    expect((await desktop.runs.wait(runId)).status).toBe('succeeded');
    runs.push(runId);
  }
  testBrowser = await launchChromium('desktop-overlay');
  page = testBrowser.page;
  await page.goto(server.url);
  await page.getByTestId('runs-table').waitFor();
}, 240_000);

afterAll(async () => {
  await testBrowser?.close();
  await desktop?.dispose();
  await server?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('overlay several runs', () => {
  it('ticks three runs, draws one chart per metric with a series per run, coloured by run', async () => {
    const overlay = page.getByTestId('overlay-button');
    await expect(overlay.isDisabled()).resolves.toBe(true);
    for (const id of runs) await page.getByLabel(`Select ${id} to compare`).check();
    // Three ticked: compare takes two, overlay all three.
    await expect(page.getByTestId('compare-button').isDisabled()).resolves.toBe(true);
    await expect(overlay.innerText()).resolves.toBe('Overlay 3 selected');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(screens, 'views-results-overlay-after.png') });
    await overlay.click();
    await page.getByTestId('overlay-page').waitFor();
    // Oldest first, whatever order the boxes were ticked in.
    expect(page.url()).toContain(`#/overlay/${runs.join('/')}`);
    const key = page.getByTestId('overlay-run');
    await key.first().waitFor({ timeout: 30_000 });
    const texts = await key.allInnerTexts();
    runs.forEach((id, i) => expect(texts[i]).toMatch(new RegExp(`${id}\\s+overlay-${i + 1}`)));
    expect(await key.evaluateAll((items) => items.map((li) => li.getAttribute('data-color')))).toEqual(SERIES_COLORS.slice(0, 3));

    // The page draws what core's chartsFor gives for the three runs: every chart's series span all three.
    const { charts } = await desktop.api.overlayRuns({ runIds: runs });
    const cdf = charts.find((c) => c.kind === 'cdf')!;
    const series = charts.find((c) => c.kind === 'timeseries')!;
    for (const chart of [cdf, series]) {
      expect(chart.kind === 'cdf' || chart.kind === 'timeseries').toBe(true);
      const ids = (chart as { series: readonly { runId: string }[] }).series.map((s) => s.runId);
      expect(new Set(ids)).toEqual(new Set(runs));
      await page.locator(`[data-chart-id="${chart.id}"] .chart-canvas[data-render-ms]`).waitFor({ timeout: 30_000 });
    }
    await expect(page.locator('[data-testid=overlay-page] .chart').count()).resolves.toBe(charts.length);
    // The time series' data table names each line by its run.
    const figure = page.locator(`[data-chart-id="${series.id}"]`);
    await figure.getByRole('button', { name: 'Data' }).click();
    const names = new Set(await figure.locator('tbody tr td:first-child').allInnerTexts());
    for (const name of ['overlay-1', 'overlay-2', 'overlay-3']) expect([...names].some((n) => n.includes(name))).toBe(true);
    await figure.getByRole('button', { name: 'Hide data' }).click();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(screens, 'views-overlay-after.png'), fullPage: true });
  });

  it("exports a comparison of two of them with every row's verdict, as a report", async () => {
    await page.goto(`${server.url.split('#')[0]}#/compare/${runs[0]}/${runs[1]}`);
    await page.getByTestId('compare-table').waitFor({ timeout: 30_000 });
    const rows = await page.getByTestId('compare-table').locator('tbody tr').count();
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 30_000 }),
      page.getByTestId('compare-exports').getByRole('button', { name: 'Report (HTML)' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`compare-${runs[0]}-${runs[1]}.html`);
    const html = readFileSync((await download.path())!, 'utf8');
    // The verdicts first, a row per row of the page's table, then both runs.
    expect(html.indexOf('id="comparison"')).toBeLessThan(html.indexOf(`id="run-${runs[0]}"`));
    expect(html.match(/<table class="comparison">[\s\S]*?<\/table>/)![0].match(/<tr>/g)).toHaveLength(rows + 1);
    expect(html).toContain('not tested: one run each');
    await expect(page.getByTestId('compare-export-status').innerText()).resolves.toMatch(/^Downloaded compare-/);
  });

  it("trends ping's latency over the runs by date, a line per direction", async () => {
    await page.goto(`${server.url.split('#')[0]}#/trend`);
    await page.getByTestId('trend-metric').waitFor();
    await page.getByTestId('trend-metric').selectOption('Average Latency');
    // Forward and reverse pings are two series: the page says so and keeps the form to narrow it.
    await expect(page.getByTestId('trend-error').innerText()).resolves.toMatch(/matches 2 series that differ in direction \(forward, reverse\)/);
    await page.getByTestId('trend-where').fill('tool=ping');
    await page.getByTestId('trend-split').selectOption('direction');
    await page.getByRole('button', { name: 'Apply' }).click();
    const summaries = page.getByTestId('trend-summaries');
    await summaries.waitFor({ timeout: 30_000 });
    expect(await summaries.innerText()).toMatch(/direction=forward: 3 runs: too few before the newest to judge it[\s\S]*direction=reverse: 3 runs/);
    const chart = page.locator('[data-chart-kind=trend]');
    await chart.locator('.chart-canvas[data-render-ms]').waitFor({ timeout: 30_000 });
    // The page draws what the bridge gives: two lines of three runs each, on the runs' start dates.
    const trend = await desktop.api.trendRuns({ metric: 'Average Latency', splitBy: 'direction', where: [{ key: 'tool', value: 'ping' }] });
    expect(trend.chart!.series.map((s) => s.points.map((p) => p.runId))).toEqual([runs, runs]);
    await chart.getByRole('button', { name: 'Data' }).click();
    expect(await chart.locator('tbody tr').count()).toBe(6);
    await page.screenshot({ path: join(screens, 'views-trend-after.png'), fullPage: true });
  });

  it('refuses one run, or the same run twice', async () => {
    await expect(desktop.api.overlayRuns({ runIds: [runs[0]!, runs[0]!] })).rejects.toThrow(/named twice/);
  });
});
