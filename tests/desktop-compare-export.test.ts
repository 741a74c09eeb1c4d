// The desktop app's compare page with two label selections, every export
// button (chart PNG/SVG, run report HTML/Markdown, CSV, JSON) and the
// wizard's cloud catalogs, in headless Chromium against the real core over
// the loopback bridge. Exports are checked twice: as browser downloads
// (`netbench ui --browser`) and through the Electron path (a page whose
// `window.netbench` is the preload's two functions over the same bridge:
// the renderer hands the file to the main process's `saveFile`). Screenshots
// go to test-artifacts/desktop/.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRegistry } from '@netbench/core';
import { type BrowserServer, createDesktopApi, type DesktopApi, startBrowserServer } from '@netbench/desktop';
import { type CdfChart, withStore } from '@netbench/results';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, type TestBrowser } from './helpers/chromium.js';

const repo = resolve(import.meta.dirname, '..');
const artifacts = join(repo, 'test-artifacts/desktop');
const home = mkdtempSync(join(tmpdir(), 'nbt-desktop-export-'));
const db = join(home, 'netbench.db');
const saved = join(home, 'saved');
let desktop: DesktopApi;
let server: BrowserServer;
let browser: BrowserContext;
let page: Page;
let testBrowser: TestBrowser | undefined;
const runs: Record<'east' | 'west', string> = { east: '', west: '' };

const shot = (p: Page, name: string) => p.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true });
const spec = (name: string, count: number) =>
  [
    `name: ${name}`,
    'hosts:',
    '  a: { cloud: local }',
    '  b: { cloud: local }',
    'benchmarks:',
    `  - { tool: ping, client: a, server: b, count: ${count}, interval: 0.02 }`,
    '  - { tool: iperf3, client: a, server: b, duration: 1, interval: 0.5 }',
    '',
  ].join('\n');

/** Click and capture the browser download it starts. */
async function downloaded(p: Page, button: Locator): Promise<{ name: string; bytes: Buffer }> {
  const [download] = await Promise.all([p.waitForEvent('download', { timeout: 30_000 }), button.click()]);
  return { name: download.suggestedFilename(), bytes: readFileSync((await download.path())!) };
}

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  mkdirSync(saved, { recursive: true });
  desktop = createDesktopApi({
    registry: createRegistry({ searchDirs: [join(repo, 'packages/cli')], userPlugins: false }),
    version: 'test',
    shell: 'browser',
    db,
    runsDir: join(home, 'runs'),
    specsDir: join(home, 'specs'),
    // Electron's save dialog answers a path; here every file goes to `saved/` under its suggested name.
    chooseSavePath: async (file) => join(saved, file.fileName),
  });
  server = await startBrowserServer({ api: desktop.api, subscribe: (listener) => desktop.runs.subscribe(listener) });
  // Two real local-lab runs of the same tests, told apart by their spec label.
  for (const side of ['east', 'west'] as const) {
    const { runId } = await desktop.api.startRun({ text: spec(`lab-${side}`, 40) });
    expect((await desktop.runs.wait(runId)).status).toBe('succeeded');
    runs[side] = runId;
  }
  testBrowser = await launchChromium('desktop-export');
  browser = testBrowser.context;
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

describe('compare two label selections', () => {
  it("offers the store's keys and values, and says no row is tested with one run a side", async () => {
    await page.getByTestId('compare-labels-link').click();
    const form = page.getByTestId('compare-form');
    await form.waitFor();
    await expect(page.getByRole('radio', { name: 'two label selections' }).isChecked()).resolves.toBe(true);
    // The key and value lists come from the store.
    await expect
      .poll(() => page.locator('#store-label-keys option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value)))
      .toEqual(expect.arrayContaining(['spec', 'tool', 'direction']));
    await page.getByLabel('Baseline key 1').fill('spec');
    await expect.poll(() => page.locator('#baseline-values-0 option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value).sort())).toEqual(['lab-east', 'lab-west']);
    await page.getByLabel('Baseline value 1').fill('lab-east');
    await page.getByTestId('baseline-selection').getByRole('button', { name: 'Add a condition' }).click();
    await page.getByLabel('Baseline key 2').fill('tool');
    await page.getByLabel('Baseline value 2').fill('ping');
    await page.getByLabel('Candidate key 1').fill('spec');
    await expect(page.getByTestId('compare-submit').isDisabled()).resolves.toBe(true);
    await page.getByLabel('Candidate value 1').fill('lab-west');
    await page.getByTestId('compare-submit').click();

    const table = page.getByTestId('compare-table');
    await table.waitFor({ timeout: 30_000 });
    expect(page.url()).toContain('#/compare/labels/');
    const sides = await page.getByTestId('compare-sides').innerText();
    expect(sides).toContain('spec=lab-east tool=ping');
    expect(sides).toMatch(/spec=lab-west\s+1 run, \d+ samples/);
    const text = await table.innerText();
    // The baseline holds only ping; the candidate's iperf3 series are listed as not compared.
    expect(text).toContain('Average latency'); // metrics by name, not by id
    expect(text).not.toContain('iperf3');
    expect(await page.getByText(/only in the candidate/).innerText()).toMatch(/[1-9]\d* only in the candidate/);
    // One run a side: no row is tested (a run's packets are not replicates); each says so, in plain text.
    const verdicts = await table.locator('.verdict').allInnerTexts();
    expect(verdicts).toEqual([]);
    for (const t of await table.getByTestId('not-tested').allInnerTexts()) expect(t).toBe('not tested: one run each');
    const note = page.getByTestId('compare-repetition-note');
    await expect(note.count()).resolves.toBe(1);
    expect(await note.innerText()).toMatch(/^Not tested: every row has one run on a side/);
    // Bookkeeping (phase durations) left out, and counted.
    expect(await page.getByTestId('compare-left-out').innerText()).toMatch(/^[1-9]\d* run-level bookkeeping samples \(phase_duration\) left out/);
    // Per-packet histograms: percentiles named, not bootstrapped over one run's packets.
    expect(await table.getByTestId('statistic').allInnerTexts()).toEqual(expect.arrayContaining(['p50 (median)', 'p99 (median)']));
    expect((await table.getByTestId('decided-by').allInnerTexts()).join('')).toBe('');
    // The same comparison from core directly: the page shows its rows, no more, no fewer.
    const direct = await desktop.api.compareSelections({
      baseline: [
        { key: 'spec', value: 'lab-east' },
        { key: 'tool', value: 'ping' },
      ],
      candidate: [{ key: 'spec', value: 'lab-west' }],
    });
    expect(await table.locator('tbody tr').count()).toBe(direct.comparison.rows.length);
    expect(direct.comparison.unrepeated).toBe(direct.comparison.rows.length);
    // The ratio column: candidate / baseline of each row, as the CLI's.
    const ratios = await table.getByTestId('ratio').allInnerTexts();
    expect(ratios).toHaveLength(direct.comparison.rows.length);
    direct.comparison.rows.forEach((r, i) => {
      if (r.baseline.value === 0) expect(ratios[i]).toBe('—');
      else {
        // Shown to 3 significant digits (1 below 0.01, whole numbers from 100): within half a unit of its last digit.
        const exact = r.candidate.value / r.baseline.value;
        const digits = exact < 0.01 ? 1 : 3;
        const halfStep = exact >= 100 ? 0.5 : 0.5 * 10 ** (Math.floor(Math.log10(exact)) - (digits - 1));
        expect(Math.abs(Number(ratios[i]!.replace(/^×/, '').replace(/,/g, '')) - exact)).toBeLessThanOrEqual(halfStep * (1 + 1e-9));
      }
    });
    await expect.poll(() => page.locator('[data-testid=compare-page] .chart').count()).toBeGreaterThan(0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, '17-compare-labels');
  });

  it('switches the same form to two runs', async () => {
    await page.getByRole('radio', { name: 'two runs' }).check();
    await page.getByLabel('Baseline run').selectOption(runs.east);
    await page.getByLabel('Candidate run').selectOption(runs.west);
    await page.getByTestId('compare-submit').click();
    await expect.poll(() => page.url()).toContain(`#/compare/${runs.east}/${runs.west}`);
    await page.getByTestId('compare-table').waitFor({ timeout: 30_000 });
    const text = await page.getByTestId('compare-table').innerText();
    expect(text).toContain('Average latency'); // metrics by name, not by id
    expect(text).toMatch(/Throughput\s+median\s+direction=forward protocol=tcp/);
    // What differs between the runs: the spec's name, said in the header.
    expect(await page.getByTestId('compare-differences').innerText()).toContain('name: lab-east → lab-west');
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, '17b-compare-runs');
  });
});

describe('exports', () => {
  it('downloads every chart as PNG and SVG, and the run as report, CSV and JSON (browser)', async () => {
    const runId = runs.east;
    await page.goto(`${server.origin}/#/run/${runId}`);
    await page.getByTestId('run-page').waitFor();
    const { charts } = await desktop.api.showRun({ runId });
    const cdf = charts.find((c): c is CdfChart => c.kind === 'cdf' && c.series.length > 1)!;
    expect(cdf).toBeDefined();
    const figure = page.locator(`[data-chart-id="${cdf.id}"]`);
    await page.waitForFunction((id) => document.querySelector(`[data-chart-id="${id}"] .chart-canvas`)?.getAttribute('data-render-ms') !== null, cdf.id);

    const png = await downloaded(page, figure.getByRole('button', { name: /as PNG$/ }));
    expect(png.name).toBe(`${cdf.id}.png`);
    expect([...png.bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    // IHDR: pixel ratio 2 of the drawn canvas (±1 CSS pixel of rounding).
    const canvas = (await figure.locator('.chart-canvas').boundingBox())!;
    expect(Math.abs(png.bytes.readUInt32BE(16) - canvas.width * 2)).toBeLessThanOrEqual(2);
    expect(Math.abs(png.bytes.readUInt32BE(20) - canvas.height * 2)).toBeLessThanOrEqual(2);
    expect(png.bytes.length).toBeGreaterThan(10_000);

    const svg = await downloaded(page, figure.getByRole('button', { name: /as SVG$/ }));
    expect(svg.name).toBe(`${cdf.id}.svg`);
    const parsed = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
      return {
        error: doc.querySelector('parsererror')?.textContent ?? null,
        root: doc.documentElement.nodeName,
        texts: [...doc.querySelectorAll('text')].map((t) => t.textContent ?? ''),
        paths: doc.querySelectorAll('path').length,
      };
    }, svg.bytes.toString('utf8'));
    expect(parsed.error).toBeNull();
    expect(parsed.root).toBe('svg');
    expect(parsed.texts).toContain(cdf.title);
    // Legend entries carry each series' p50 and p99: `forward (p50 63, p99 125 µs)`.
    for (const s of cdf.series) expect(parsed.texts.some((t) => t.startsWith(`${s.name} (p50 `))).toBe(true);
    // The exported picture says which run and when.
    expect(parsed.texts.some((t) => t.startsWith(`run ${runId} · `) && / UTC · netbench$/.test(t))).toBe(true);
    expect(parsed.paths).toBeGreaterThan(cdf.series.length);

    const exports = page.getByTestId('run-exports');
    const stored = await withStore(db, (store) => store.load(store.resolve(runId)));
    const csv = await downloaded(page, exports.getByRole('button', { name: 'CSV' }));
    expect(csv.name).toBe(`${runId}.csv`);
    expect(csv.bytes.toString('utf8').trim().split('\n').length - 1).toBe(stored.samples.length);
    const json = await downloaded(page, exports.getByRole('button', { name: 'JSON' }));
    expect(json.name).toBe(`${runId}.results.json`);
    expect(JSON.parse(json.bytes.toString('utf8'))).toEqual(JSON.parse(JSON.stringify(stored)));
    const html = await downloaded(page, exports.getByRole('button', { name: 'Report (HTML)' }));
    expect(html.bytes.toString('utf8')).toMatch(/^<!doctype html>/i);
    expect(html.bytes.toString('utf8')).toContain(runId);
    const md = await downloaded(page, exports.getByRole('button', { name: 'Markdown' }));
    expect(md.name).toBe(`${runId}.md`);
    expect(md.bytes.toString('utf8')).toContain(runId);
    // One downloaded file: its charts travel inside it (SVG data URLs), no links to files that are not there.
    const images = [...md.bytes.toString('utf8').matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)].map((m) => m[1]!);
    expect(images.length).toBeGreaterThan(0);
    for (const image of images) {
      expect(image.startsWith('data:image/svg+xml;base64,')).toBe(true);
      expect(Buffer.from(image.slice(image.indexOf(',') + 1), 'base64').toString('utf8')).toMatch(/^<svg[\s\S]*run /);
    }
    await expect(page.getByTestId('export-status').innerText()).resolves.toBe(`Downloaded ${runId}.md`);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, '18-run-exports');
  });

  it('hands the files to the main process to save in Electron (the preload bridge)', async () => {
    const electron = await browser.newPage();
    electron.on('pageerror', (error) => {
      throw error;
    });
    // What preload.cts exposes, carried over the same validated bridge instead of IPC.
    await electron.addInitScript(() => {
      (window as unknown as { netbench: unknown }).netbench = {
        call: (method: string, arg: unknown) =>
          fetch('/api/call', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ method, arg }) }).then((r) => r.json()),
        onEvent: () => () => {},
      };
    });
    const runId = runs.west;
    await electron.goto(`${server.origin}/#/run/${runId}`);
    await electron.getByTestId('run-page').waitFor();
    await electron.getByTestId('run-exports').getByRole('button', { name: 'CSV' }).click();
    await expect.poll(() => electron.getByTestId('export-status').innerText()).toBe(`Saved ${join(saved, `${runId}.csv`)}`);
    expect(readFileSync(join(saved, `${runId}.csv`), 'utf8')).toBe((await desktop.api.exportRun({ runId, format: 'csv' })).content);

    const chart = electron.locator('[data-chart-kind=timeseries]').first();
    const id = (await chart.getAttribute('data-chart-id'))!;
    await electron.waitForFunction((c) => document.querySelector(`[data-chart-id="${c}"] .chart-canvas`)?.getAttribute('data-render-ms') !== null, id);
    await chart.getByRole('button', { name: /as PNG$/ }).click();
    await expect.poll(() => chart.getByRole('status').innerText()).toBe(`Saved ${join(saved, `${id}.png`)}`);
    const bytes = readFileSync(join(saved, `${id}.png`));
    expect([...bytes.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    expect(bytes.length).toBeGreaterThan(5_000);
    await chart.getByRole('button', { name: /as SVG$/ }).click();
    await expect.poll(() => chart.getByRole('status').innerText()).toBe(`Saved ${join(saved, `${id}.svg`)}`);
    expect(readFileSync(join(saved, `${id}.svg`), 'utf8')).toMatch(/^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    await electron.close();
  });
});

describe('the wizard with cloud catalogs', () => {
  it("picks aws regions, zones and machine types from the plugin's catalog, and takes a zone that is not listed", async () => {
    await page.goto(`${server.origin}/#/new`);
    await page.getByLabel('Name').fill('aws-zones');
    await page.getByRole('button', { name: 'Next: where' }).click();
    const rows = page.getByTestId('site-row');
    const { catalog } = await desktop.api.cloudCatalog({ cloud: 'aws' });
    expect(catalog).not.toBeNull();
    for (const i of [0, 1])
      await rows
        .nth(i)
        .getByRole('combobox', { name: new RegExp(`^Place ${i + 1}`) })
        .selectOption('cloud:aws');
    const first = rows.nth(0);
    await first.getByLabel('Region').selectOption('us-west-2');
    const zones = await first.getByLabel('Zone', { exact: true }).locator('option').allInnerTexts();
    expect(zones.slice(0, -1)).toEqual(catalog!.regions.find((r) => r.name === 'us-west-2')!.zones);
    await first.getByLabel('Zone', { exact: true }).selectOption('us-west-2b');
    const types = await first.getByLabel('Machine type', { exact: true }).locator('option').allInnerTexts();
    expect(types).toContain('m5.large — 2 vCPU · 8 GiB · general purpose');
    await first.getByLabel('Machine type', { exact: true }).selectOption('c5n.large');
    await expect(page.getByTestId('catalog-note-0').innerText()).resolves.toMatch(
      new RegExp(`^aws catalog of ${catalog!.date}: \\d+ regions, \\d+ machine types · c5n\\.large: 2 vCPU`),
    );

    const second = rows.nth(1);
    await second.getByLabel('Region').selectOption('eu-west-1');
    await second.getByLabel('Zone', { exact: true }).selectOption({ label: 'another zone (type it)…' });
    await second.getByLabel('Zone name').fill('eu-west-1z');
    await shot(page, '19-wizard-aws-catalog');
    await page.getByRole('button', { name: 'Next: tests' }).click();
    await page.getByRole('button', { name: 'Next: review' }).click();
    const status = page.getByTestId('spec-status');
    await expect.poll(() => status.innerText(), { timeout: 30_000 }).toMatch(/^Valid: \d+ trials on 2 hosts/);
    const yaml = await page.getByLabel('Spec (YAML)').inputValue();
    expect(yaml).toContain('zone: us-west-2b');
    expect(yaml).toContain('machineType: c5n.large');
    expect(yaml).toContain('zone: eu-west-1z');
    // The second place kept the default: a network-optimized type, not the catalog's first (a burstable t3.nano).
    expect(yaml).toContain('machineType: c5n.xlarge');
    expect(yaml).not.toContain('nano');
    expect(await page.getByTestId('cost-total').innerText()).not.toContain('$0.00');
    // Itemised: the instances, per region and type, in instance-hours (latency tests send no bulk traffic to bill).
    const items = await page.getByTestId('cost-items').innerText();
    expect(items).toMatch(/c5n\.large in us-west-2/);
    expect(items).toMatch(/c5n\.xlarge in eu-west-1/);
    expect(items).toMatch(/instance-hour/);
    // Credentials are checked here, without calling AWS (found or not, the check is listed).
    const checks = page.getByTestId('run-checks');
    await checks.waitFor();
    expect(await checks.innerText()).toMatch(/aws credentials/);
  });
});
