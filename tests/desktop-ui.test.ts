// The desktop app's renderer in headless Chromium against the real core,
// through the `--browser` bridge: the wizard runs a local-lab comparison
// (two namespaces, ping + netperf + iperf3), the live view shows progress,
// the results page draws a chart whose numbers match the store, two runs
// are compared, a run is cancelled, an invalid spec cannot run, and a lost
// bridge is reported. Every page is saved under test-artifacts/desktop/.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRegistry } from '@netbench/core';
import { type BrowserUi, serveBrowserUi } from '@netbench/desktop';
import { withStore } from '@netbench/results';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, type TestBrowser } from './helpers/chromium.js';

const repo = resolve(import.meta.dirname, '..');
const artifacts = join(repo, 'test-artifacts/desktop');
const home = mkdtempSync(join(tmpdir(), 'nbt-desktop-'));
const db = join(home, 'netbench.db');
let ui: BrowserUi;
let browser: BrowserContext;
let page: Page;
let testBrowser: TestBrowser | undefined;
/** The spec the wizard made, run again for the comparison. */
let wizardSpec = '';

const shot = (name: string) => page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true });

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  ui = await serveBrowserUi({
    registry: createRegistry({ searchDirs: [join(repo, 'packages/cli')], userPlugins: false }),
    version: 'test',
    db,
    runsDir: join(home, 'runs'),
    specsDir: join(home, 'specs'),
    searchDirs: [join(repo, 'packages/cli')],
  });
  testBrowser = await launchChromium('desktop');
  browser = testBrowser.context;
  page = testBrowser.page;
});

afterAll(async () => {
  await testBrowser?.close();
  await ui?.close().catch(() => {});
  rmSync(home, { recursive: true, force: true });
});

describe('desktop app in a browser, over the loopback bridge', () => {
  it('refuses requests without the token, then signs in with it', async () => {
    const anonymous = await fetch(`${ui.server.origin}/`);
    expect(anonymous.status).toBe(401);
    await page.goto(ui.server.url);
    // The token became a cookie and left the address bar.
    expect(page.url()).toBe(`${ui.server.origin}/`);
    await page.getByTestId('results-page').waitFor();
    await page.getByText(/No stored runs yet/).waitFor();
    await shot('01-results-empty');
  });

  it('lists installed plugins with kinds and versions', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Plugins' }).click();
    const table = page.getByTestId('plugins-table');
    await table.waitFor();
    const text = await table.innerText();
    for (const name of ['local', 'ping', 'netperf', 'iperf3', 'json']) expect(text).toContain(name);
    expect(text).toMatch(/tool\s+ping\s+0\.1\.0/);
    await shot('02-plugins');
  });

  it('drives the wizard to a valid spec; an invalid edit shows line:col and cannot run', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'New comparison' }).click();
    await page.getByLabel('Name').fill('desktop-e2e');
    await shot('03-wizard-question');
    await page.getByRole('button', { name: 'Next: where' }).click();
    await expect.poll(() => page.getByTestId('site-row').count()).toBe(2);
    await shot('04-wizard-where');
    await page.getByRole('button', { name: 'Next: tests' }).click();
    await page.getByRole('checkbox', { name: /iperf3/ }).check();
    await page.getByLabel('Seconds per test and host pair').fill('1');
    // Repetitions default to 3 (random order); one keeps this test short.
    await expect(page.getByLabel('Repetitions (random order)').inputValue()).resolves.toBe('3');
    await page.getByLabel('Repetitions (random order)').fill('1');
    // Delay and loss need netem: enabled only where the local plugin found it, with its reason otherwise.
    const netem = await page.getByTestId('netem-why').innerText();
    const delayDisabled = await page.getByLabel('Delay, ms (one way)').isDisabled();
    expect(delayDisabled).toBe(!/\(available\)/.test(netem));
    if (delayDisabled) expect(netem).toMatch(/^Delay and loss need netem: .+/);
    await shot('05-wizard-tests');
    const status = page.getByTestId('spec-status');
    // A rate with reverse-only traffic: the wizard shapes the sender (the server) only, so
    // nothing is shaped that no trial measures and the review has no shaping warning.
    await page.getByLabel('Rate, Mbit/s').fill('100');
    await page.getByRole('radio', { name: 'server → client' }).check();
    await expect(page.getByTestId('shaping-where').innerText()).resolves.toMatch(/the rate on the ends that send bulk traffic \(the server\)/);
    await page.getByRole('button', { name: 'Next: review' }).click();
    await expect.poll(() => status.innerText(), { timeout: 30_000 }).toMatch(/^Valid/);
    const shaped = await page.getByLabel('Spec (YAML)').inputValue();
    expect(shaped).toMatch(/local-1:\n {4}cloud: local\n {2}local-2:\n {4}cloud: local\n {4}link:\n {6}rate: 100mbit\n/);
    expect(
      await page
        .getByTestId('spec-warnings')
        .innerText()
        .catch(() => ''),
    ).not.toMatch(/link\.rate shapes/);
    await shot('05b-review-shaped-sender');
    // Back to the plain run: no shaping, client → server.
    await page.getByRole('list', { name: 'Steps' }).getByRole('button', { name: '3. Tests' }).click();
    await page.getByLabel('Rate, Mbit/s').fill('');
    await page.getByRole('radio', { name: 'client → server' }).check();
    await page.getByRole('button', { name: 'Next: review' }).click();

    // ping (forward, the default direction), netperf TCP_RR, iperf3: one repetition each.
    await expect.poll(() => status.innerText(), { timeout: 30_000 }).toMatch(/^Valid: 3 trials on 2 hosts/);
    expect(await page.getByTestId('plan-trials').innerText()).toMatch(/direction=forward/);
    expect(
      await page
        .getByTestId('spec-warnings')
        .innerText()
        .catch(() => ''),
    ).not.toMatch(/link\.rate shapes/);
    await expect(page.getByTestId('cost-total').innerText()).resolves.toContain('$0.00');
    await shot('06-review-valid');

    const editor = page.getByLabel('Spec (YAML)');
    const valid = await editor.inputValue();
    expect(valid).toContain('tool: iperf3');
    await editor.fill(`${valid}bogus: 1\n`.replace('duration: 1', 'duration: -5'));
    await expect.poll(() => status.innerText(), { timeout: 30_000 }).toMatch(/^Invalid: 2 problem/);
    const issues = await page.getByTestId('spec-issues').innerText();
    const bogusLine = `${valid}bogus: 1\n`.split('\n').indexOf('bogus: 1') + 1;
    expect(issues).toContain(`${bogusLine}:1`);
    expect(issues).toContain("unknown field 'bogus'");
    expect(issues).toMatch(/\d+:\d+\s*benchmarks\.\d+\.duration/);
    await expect(page.getByTestId('run-button').isDisabled()).resolves.toBe(true);
    await shot('07-review-invalid');
    await editor.fill(valid);
    wizardSpec = valid;
    await expect.poll(() => status.innerText(), { timeout: 30_000 }).toMatch(/^Valid/);
  });

  it('runs the comparison live and opens results whose chart matches the store', async () => {
    await page.getByTestId('run-button').click();
    await page.getByTestId('live-page').waitFor();
    await expect.poll(() => page.getByTestId('trial-progress').innerText(), { timeout: 60_000 }).toMatch(/Trial [1-3]\/3/);
    await shot('08-live-running');
    const ended = page.getByTestId('run-ended');
    await ended.waitFor({ timeout: 180_000 });
    expect(await ended.innerText()).toMatch(/Finished/);
    // The local lab's namespaces and servers are in the ledger as deleted.
    const teardown = await page.getByTestId('teardown').innerText();
    expect(teardown).toContain('deleted');
    expect(teardown).not.toContain('delete-failed');
    await expect.poll(() => page.locator('[data-testid=live-page] .chart').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await shot('09-live-finished');

    await page.getByRole('link', { name: 'Open the results' }).click();
    await page.getByTestId('run-page').waitFor();
    const runId = page.url().split('/').pop()!;
    const summary = await page.getByTestId('summary-table').innerText();
    expect(summary).toContain('ping');
    expect(summary).toContain('TCP_RR');
    expect(summary).toContain('iperf3');
    // One summary row per trial (not per metric), percentiles in the unit their size fills.
    await expect(page.getByTestId('summary-table').getAttribute('data-rows')).resolves.toBe('3');
    expect(summary).toMatch(/p50\s+p90\s+p99\s+p99\.9\s+n\s+loss/);
    // 20 pings: p50 only, not p90, p99 or p99.9 (n ≥ 5/(1−q): 50, 500 and 5,000), and n itself.
    expect(summary).toMatch(/ping · icmp\s+\S+ → \S+\s+.*mean [\d.]+ [µm]s\s+[\d.]+ [µm]s\s+—\s+—\s+—\s+\d+\s+[\d.]+%/);
    expect(summary).toMatch(/netperf · TCP_RR\s+.*[\d,]+ tx\/s\s+[\d.]+ [µm]s\s+[\d.]+ [µm]s\s+[\d.]+ [µm]s\s+—/);

    const chart = page.locator('[data-chart-kind=timeseries]').first();
    await chart.waitFor();
    await chart.getByRole('button', { name: 'Data' }).click();
    const rows = await chart.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
    const metric = (await chart.getAttribute('data-chart-id'))!;
    const stored = await withStore(db, (store) => store.samples(store.resolve(runId)));
    const intervals = stored.filter(
      (s) => typeof s.labels['interval_end'] === 'number' && s.labels['stream'] === undefined && metric.includes(s.metric.toLowerCase().replace(/\s+/g, '-')),
    );
    expect(intervals.length).toBeGreaterThanOrEqual(2);
    const expected = intervals.map((s) => [Number(s.labels['interval_end']), s.value]).sort((a, b) => a[0]! - b[0]!);
    // The table gives each column in the unit its values fill (named in its header: s or ms, Mbit/s or Gbit/s)
    // to 3 significant digits: each shown value is within half its last digit of the stored one.
    const units = (await chart.locator('thead th').allTextContents()).map((h) => /\(([^)]+)\)$/.exec(h)?.[1] ?? '');
    const SCALE: Readonly<Record<string, number>> = { ms: 1e-3, s: 1, 'kbit/s': 1e-3, 'Mbit/s': 1, 'Gbit/s': 1e3 };
    const shown = rows.map((r) => [Number(r[1]!.replaceAll(',', '')) * SCALE[units[1]!]!, Number(r[2]!.replaceAll(',', '')) * SCALE[units[2]!]!]).sort((a, b) => a[0]! - b[0]!);
    expect(stored.find((s) => s.metric === intervals[0]!.metric)?.unit).toBe('Mbits/sec');
    expect(shown).toHaveLength(expected.length);
    shown.forEach((pair, i) => pair.forEach((v, j) => expect(Math.abs(v - expected[i]![j]!)).toBeLessThanOrEqual(Math.abs(expected[i]![j]!) * 5e-3 + 1e-9)));
    // The header: each host with its address and shaping; measured, not imported.
    const header = await page.getByTestId('run-header').innerText();
    expect(header).toMatch(/measured by netbench/);
    expect(header).toMatch(/local-1\s+local\s+.*\s+10\.\d+\.\d+\.\d+/);
    expect(header).toContain('none');
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot('10-run-page');
  });

  it('compares two stored runs with significance verdicts', async () => {
    const { runId } = await ui.desktop.api.startRun({ text: wizardSpec });
    expect((await ui.desktop.runs.wait(runId)).status).toBe('succeeded');
    await page.getByRole('navigation').getByRole('link', { name: 'Results' }).click();
    const table = page.getByTestId('runs-table');
    await table.waitFor();
    await expect(table.locator('tbody tr').count()).resolves.toBe(2);
    // A headline number per run (iperf3's throughput, the median of its samples), and sortable columns.
    for (const cell of await table.locator('td.headline').allInnerTexts()) expect(cell).toMatch(/^Throughput [\d.,]+ [MG]bit\/s( · median of \d+)?$/);
    await page.getByTestId('sort-samples').click();
    await expect(table.locator('th[aria-sort=ascending]').innerText()).resolves.toMatch(/^samples/);
    const counts = (await table.locator('tbody tr td:nth-child(9)').allInnerTexts()).map(Number);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    await page.getByTestId('sort-startedAt').click();
    await shot('11-results-history');
    const boxes = table.getByRole('checkbox');
    await boxes.nth(0).check();
    await boxes.nth(1).check();
    await page.getByTestId('compare-button').click();
    const compare = page.getByTestId('compare-table');
    await compare.waitFor({ timeout: 30_000 });
    const verdicts = await compare.locator('.verdict').allInnerTexts();
    // Same spec twice: every measured metric lines up (latency, throughput), not only phase durations.
    expect(await compare.innerText()).toContain('Average latency'); // metrics by name, not by id
    expect(await compare.locator('tbody tr').count()).toBeGreaterThan(10);
    for (const v of verdicts) expect(['better', 'worse', 'higher', 'lower', 'no significant difference', 'too few repetitions']).toContain(v);
    // One run each: said above the table and in every row, without a verdict's colour.
    expect(verdicts).toEqual([]);
    for (const text of await compare.getByTestId('not-tested').allInnerTexts()) expect(text).toBe('not tested: one run each');
    expect(await page.getByTestId('compare-repetition-note').innerText()).toMatch(/^Not tested(: \d+ of \d+ rows have|: every row has)/);
    await shot('12-compare');
  });

  it('filters the history', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Results' }).click();
    await page.getByLabel('Spec').fill('desktop-e2e');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => page.getByTestId('runs-count').innerText()).toBe('Showing 2 of 2 runs.');
    await page.getByLabel('Spec').fill('no-such-spec');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByText(/No stored runs match these filters/).waitFor();
  });

  it('cancels a run: torn down, what was measured is kept', async () => {
    const text = [
      'name: cancel-me',
      'hosts:',
      '  a: { cloud: local }',
      '  b: { cloud: local }',
      'benchmarks:',
      '  - { tool: ping, client: a, server: b, count: 10, interval: 0.05 }',
      '  - { tool: iperf3, client: a, server: b, duration: 30 }',
      '',
    ].join('\n');
    const { runId } = await ui.desktop.api.startRun({ text });
    await page.goto(`${ui.server.origin}/#/live/${runId}`);
    await expect.poll(() => page.getByTestId('trial-progress').innerText(), { timeout: 60_000 }).toMatch(/Trial 3\/3 — iperf3/);
    // Live: while the 30 s trial runs, its current value shows, its interval chart fills in and the bar moves within it.
    await expect.poll(() => page.getByTestId('live-now').innerText(), { timeout: 30_000 }).toMatch(/Interval throughput now\s+[\d.,]+ [kMG]?bit\/s/);
    await expect.poll(() => page.locator('[data-testid=live-page] [data-chart-kind=timeseries]').count(), { timeout: 30_000 }).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('trial-bar').evaluate((bar) => (bar as HTMLProgressElement).value), { timeout: 30_000 }).toBeGreaterThan(2);
    await shot('13-live-running-value');
    await page.getByTestId('cancel-button').click();
    const ended = page.getByTestId('run-ended');
    await ended.waitFor({ timeout: 120_000 });
    expect(await ended.innerText()).toMatch(/Cancelled — torn down, results so far kept/);
    expect(await page.getByTestId('teardown').innerText()).not.toContain('delete-failed');
    await shot('13-live-cancelled');
    const stored = await withStore(db, (store) => store.load(store.resolve(runId)));
    expect(stored.run.status).toBe('interrupted');
    expect(stored.samples.some((s) => s.labels['tool'] === 'ping')).toBe(true);
  });

  it('shows why a run failed and what was torn down', async () => {
    // A static host on a closed loopback port: provisioning fails after the local host was made.
    const key = join(home, 'id_ed25519');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', key]);
    const text = [
      'name: fail-me',
      'hosts:',
      '  a: { cloud: local }',
      `  b: { cloud: static, address: 127.0.0.1, port: 1, user: nobody, key: ${key} }`,
      'benchmarks:',
      '  - { tool: ping, client: a, server: b, count: 5, interval: 0.05 }',
      '',
    ].join('\n');
    const { runId } = await ui.desktop.api.startRun({ text });
    await page.goto(`${ui.server.origin}/#/live/${runId}`);
    const ended = page.getByTestId('run-ended');
    await ended.waitFor({ timeout: 120_000 });
    const body = await ended.innerText();
    expect(body).toMatch(/Failed/);
    expect(body).toMatch(/Why/);
    expect(body).toMatch(/unreachable/);
    // The local host made before the failure is in the ledger, and was deleted.
    const teardown = await page.getByTestId('teardown').innerText();
    expect(teardown).toMatch(/local netns\s+nb-\S+-a\s+a\s+deleted/);
    expect(teardown).not.toContain('delete-failed');
    await shot('14-live-failed');
  });

  it('has a dark theme', async () => {
    await page.goto(`${ui.server.origin}/#/results`);
    await page.getByRole('button', { name: /Switch to dark theme/ }).click();
    await expect(page.evaluate(() => document.documentElement.dataset['theme'])).resolves.toBe('dark');
    await page.getByTestId('runs-table').waitFor();
    await shot('15-results-dark');
    await page.getByRole('button', { name: /Switch to light theme/ }).click();
  });

  it('is keyboard accessible: skip link and tab order reach the navigation', async () => {
    await page.goto(`${ui.server.origin}/#/results`);
    await page.reload();
    await page.getByTestId('results-page').waitFor();
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Skip to content');
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('New comparison');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.url()).toContain('#/new');
  });

  it('reports a lost bridge connection instead of a blank page', async () => {
    await page.goto(`${ui.server.origin}/#/results`);
    await page.getByTestId('runs-table').waitFor();
    await ui.server.close();
    await page.getByTestId('connection-lost').waitFor({ timeout: 15_000 });
    expect(await page.locator('main').innerText()).not.toBe('');
    await shot('16-connection-lost');
  });
});
