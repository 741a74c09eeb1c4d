// The desktop app's live run view while a latency-under-load trial runs, in
// headless Chromium against the real core through the `--browser` bridge
// (as tests/desktop-ui.test.ts): a tcp_nup on two lab namespaces (100 Mbit/s
// with a 100 ms queue on the bridge port toward the server, CUBIC), and flent's "all scaled" chart gaining
// points — first the idle probes, then the upload and its loaded RTTs —
// before the run has ended. Screenshots: /work/screens/lul-live-*.png when
// that folder can be made, else test-artifacts/desktop-load-live/.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRegistry } from '@netbench/core';
import { type BrowserUi, serveBrowserUi } from '@netbench/desktop';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, type TestBrowser } from './helpers/chromium.js';

const repo = resolve(import.meta.dirname, '..');
const screens = (() => {
  for (const dir of ['/work/screens', join(repo, 'test-artifacts/desktop-load-live')]) {
    try {
      mkdirSync(dir, { recursive: true });
      return dir;
    } catch {
      // not writable here: the next one
    }
  }
  throw new Error('no folder for screenshots');
})();
const home = mkdtempSync(join(tmpdir(), 'nbt-desktop-load-'));
const SPEC = `name: live-load
description: tcp_nup with ICMP probes, for the live view
hosts:
  client: { cloud: local, congestionControl: cubic }
  server: { cloud: local, congestionControl: cubic, link: { ingressRate: 100mbit, latency: 100ms } }
benchmarks:
  - { tool: load, test: tcp_nup, client: client, server: server, streams: 2, duration: 10, idle: 3, probes: [icmp] }
`;

let ui: BrowserUi;
let browser: TestBrowser | undefined;

beforeAll(async () => {
  ui = await serveBrowserUi({
    registry: createRegistry({ searchDirs: [join(repo, 'packages/cli')], userPlugins: false }),
    version: 'test',
    db: join(home, 'netbench.db'),
    runsDir: join(home, 'runs'),
    specsDir: join(home, 'specs'),
    searchDirs: [join(repo, 'packages/cli')],
  });
  browser = await launchChromium('desktop-load');
});

afterAll(async () => {
  await browser?.close();
  await ui?.close().catch(() => {});
  rmSync(home, { recursive: true, force: true });
});

/**
 * The chart's data table as [series, seconds, value] rows (the Data button shows it; it follows the
 * live chart), values in Mbit/s and ms: the table gives each column in the unit its values fill
 * (named in the header). Throughput sits in the third column, RTTs in the fourth (the right axis's).
 */
const SCALE: Readonly<Record<string, number>> = { 'kbit/s': 1e-3, 'Mbit/s': 1, 'Gbit/s': 1e3, µs: 1e-3, ms: 1, s: 1e3 };
async function points(chart: Locator): Promise<[string, number, number][]> {
  const header = await chart.locator('thead th').allTextContents();
  const scale = (column: number) => SCALE[/\(([^)]+)\)$/.exec(header[column] ?? '')?.[1] ?? ''] ?? Number.NaN;
  const rows = await chart.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
  const number = (text: string) => Number(text.replaceAll(',', ''));
  // The time column too is in the unit its values fill: ms while the trial is under a second old.
  const seconds = header[1]?.endsWith('(ms)') ? 1e-3 : 1;
  return rows.map((r) => [r[0]!, number(r[1]!) * seconds, r[2] ? number(r[2]) * scale(2) : number(r[3]!) * scale(3)]);
}

describe('desktop live view of a load test', () => {
  it('the all-scaled chart fills in while the trial runs: idle probes, then the upload and its loaded RTTs', async () => {
    const page = browser!.page;
    await page.goto(ui.server.url);
    await page.getByTestId('results-page').waitFor();
    const { runId } = await ui.desktop.api.startRun({ text: SPEC });
    await page.goto(`${ui.server.origin}/#/live/${runId}`);
    await page.getByTestId('live-page').waitFor();
    const ended = page.getByTestId('run-ended');
    const chart = page.locator('[data-testid=live-page] [data-chart-id^="load-all-scaled"]').first();
    await chart.waitFor({ timeout: 90_000 });
    await chart.getByRole('button', { name: 'Data' }).click();

    // Idle phase: probe RTTs only, sub-millisecond.
    await expect.poll(async () => (await points(chart)).length, { timeout: 30_000 }).toBeGreaterThan(3);
    const early = await points(chart);
    expect(await ended.count()).toBe(0);
    await chart.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(screens, 'lul-live-1-idle.png'), fullPage: true });

    // Under load: the upload appears, RTTs climb into the 100 ms queue, and the chart holds more points than before.
    await expect.poll(async () => (await points(chart)).filter(([series]) => series === 'upload').length, { timeout: 30_000 }).toBeGreaterThan(5);
    await expect.poll(async () => Math.max(...(await points(chart)).filter(([series]) => series === 'ICMP RTT').map(([, , ms]) => ms)), { timeout: 30_000 }).toBeGreaterThan(10);
    const loaded = await points(chart);
    expect(await ended.count(), 'the run ended before the chart filled in: not a live view').toBe(0);
    expect(loaded.length).toBeGreaterThan(early.length);
    const latest = (rows: [string, number, number][]) => Math.max(...rows.map(([, seconds]) => seconds));
    expect(latest(loaded)).toBeGreaterThan(latest(early));
    await page.screenshot({ path: join(screens, 'lul-live-2-loaded.png'), fullPage: true });

    await ended.waitFor({ timeout: 120_000 });
    expect(await ended.innerText()).toMatch(/Finished/);
    await expect.poll(async () => latest(await points(chart)), { timeout: 10_000 }).toBeGreaterThan(latest(loaded));
    await chart.getByRole('button', { name: 'Hide data' }).click();
    await page.screenshot({ path: join(screens, 'lul-live-3-finished.png'), fullPage: true });
  });
});
