// The desktop wizard in headless Chromium, over the loopback bridge: the
// latency-under-load question on the local lab keeps its answers when the
// user leaves the wizard and comes back; the tests step says where the rate
// goes; the review groups the plan (pair × test × n) and shows the local
// plugin's preflight; the spec runs for real (a few seconds of rrul) and the
// run page's "Run again / edit" opens that run's spec in the wizard.
// Screenshots go to test-artifacts/desktop-wizard/.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRegistry } from '@netbench/core';
import { type BrowserUi, serveBrowserUi } from '@netbench/desktop';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, type TestBrowser } from './helpers/chromium.js';

const repo = resolve(import.meta.dirname, '..');
const artifacts = process.env['NETBENCH_SCREENS'] ?? join(repo, 'test-artifacts/desktop-wizard');
const home = mkdtempSync(join(tmpdir(), 'nbt-wizard-flow-'));
let ui: BrowserUi;
let browser: TestBrowser | undefined;
let page: Page;
const shot = (step: string) => page.screenshot({ path: join(artifacts, `wizard-${step}-after.png`), fullPage: true });
const nav = (name: string) => page.getByRole('navigation').getByRole('link', { name }).click();

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  ui = await serveBrowserUi({
    registry: createRegistry({ searchDirs: [join(repo, 'packages/cli')], userPlugins: false }),
    version: 'test',
    db: join(home, 'netbench.db'),
    runsDir: join(home, 'runs'),
    specsDir: join(home, 'specs'),
    searchDirs: [join(repo, 'packages/cli')],
  });
  browser = await launchChromium('wizard-flow');
  page = browser.page;
});

afterAll(async () => {
  await browser?.close();
  await ui?.close().catch(() => {});
  rmSync(home, { recursive: true, force: true });
});

describe('the wizard: kept answers, latency under load on the lab, preflight, run again', () => {
  it('keeps its answers when the user leaves and comes back', async () => {
    await page.goto(ui.server.url);
    await nav('New comparison');
    await page.getByRole('radio', { name: /Latency under load/ }).check();
    await page.getByLabel('Name').fill('lul-lab');
    await shot('question-load');
    await page.getByRole('button', { name: 'Next: where' }).click();
    await expect.poll(() => page.getByTestId('site-row').count()).toBe(2);
    await page.getByRole('button', { name: 'Next: tests' }).click();
    await page.getByTestId('tests-step').waitFor();
    await page.getByLabel('Seconds per test and host pair').fill('3');
    await page.getByLabel('Repetitions (random order)').fill('1');
    await page.getByTestId('load-test').selectOption('tcp_nup');

    await nav('Results');
    await page.getByTestId('results-page').waitFor();
    await nav('New comparison');
    // Back on the tests step, with every answer as it was.
    await page.getByTestId('tests-step').waitFor();
    await expect(page.getByLabel('Seconds per test and host pair').inputValue()).resolves.toBe('3');
    await expect(page.getByLabel('Repetitions (random order)').inputValue()).resolves.toBe('1');
    await expect(page.getByTestId('load-test').inputValue()).resolves.toBe('tcp_nup');
    await page.getByRole('list', { name: 'Steps' }).getByRole('button', { name: '1. Question' }).click();
    await expect(page.getByLabel('Name').inputValue()).resolves.toBe('lul-lab');
    await expect(page.getByRole('radio', { name: /Latency under load/ }).isChecked()).resolves.toBe(true);
  });

  it('says where the rate goes, and reviews a grouped plan with the local preflight', async () => {
    await page.getByRole('list', { name: 'Steps' }).getByRole('button', { name: '3. Tests' }).click();
    await page.getByTestId('load-test').selectOption('rrul');
    const rateEnabled = !(await page.getByLabel('Rate, Mbit/s').isDisabled());
    if (rateEnabled) {
      await page.getByLabel('Rate, Mbit/s').fill('100');
      // rrul loads both ways: both ends send bulk traffic.
      await expect(page.getByTestId('shaping-where').innerText()).resolves.toMatch(/\(client and server\)/);
    }
    await shot('tests-load');
    await page.getByRole('button', { name: 'Next: review' }).click();
    const status = page.getByTestId('spec-status');
    await expect.poll(() => status.innerText(), { timeout: 30_000 }).toMatch(/^Valid: 1 trials on 2 hosts/);
    const yaml = await page.getByLabel('Spec (YAML)').inputValue();
    expect(yaml).toMatch(/- tool: load\n {4}client: local-1\n {4}server: local-2\n {4}test: rrul\n {4}duration: 3\n/);
    if (rateEnabled) expect(yaml.match(/rate: 100mbit/g)).toHaveLength(2);
    const plan = await page.getByTestId('plan-trials').innerText();
    expect(plan).toMatch(/Trials: 1 configurations/);
    expect(plan).toMatch(/local-1 → local-2\s+load\s+rrul\s+.*\s+1$/m);
    expect(
      await page
        .getByTestId('spec-warnings')
        .innerText()
        .catch(() => ''),
    ).toBe('');
    // The local plugin's preflight ran on its own: a verdict for the local cloud.
    await expect.poll(() => page.getByTestId('preflight-findings').innerText(), { timeout: 30_000 }).toMatch(/^[✓✗] local: /);
    await shot('review-load');

    // A congestion control this kernel lacks: the local plugin's preflight refuses it, naming the host, before Run.
    const editor = page.getByLabel('Spec (YAML)');
    await editor.fill(yaml.replace('  local-1:\n    cloud: local\n', '  local-1:\n    cloud: local\n    congestionControl: nosuchcc\n'));
    await expect
      .poll(() => page.getByTestId('preflight-findings').innerText(), { timeout: 30_000 })
      .toMatch(/^✗ local: host local-1.*(nosuchcc|congestion control).*Run would stop here/s);
    await shot('review-preflight');
    await editor.fill(yaml);
    await expect.poll(() => page.getByTestId('preflight-findings').innerText(), { timeout: 30_000 }).toMatch(/^[✓✗] local: /);
  });

  it("runs it for real and opens the run's spec again from its run page", async () => {
    const preflight = await page.getByTestId('preflight-findings').innerText();
    // Where the local plugin refuses this machine (no namespaces, no tbf), the run would stop at the same place: say so and stop.
    if (preflight.startsWith('✗')) {
      expect(preflight).toMatch(/Run would stop here/);
      return;
    }
    await page.getByTestId('run-button').click();
    await page.getByTestId('live-page').waitFor();
    const ended = page.getByTestId('run-ended');
    await ended.waitFor({ timeout: 180_000 });
    expect(await ended.innerText()).toMatch(/Finished/);
    await page.getByRole('link', { name: 'Open the results' }).click();
    await page.getByTestId('run-page').waitFor();
    await page.getByTestId('run-again').waitFor();
    await shot('run-page');
    await page.getByTestId('run-again').click();
    await page.getByTestId('spec-status').waitFor();
    await expect.poll(() => page.getByTestId('spec-status').innerText(), { timeout: 30_000 }).toMatch(/^Valid: 1 trials on 2 hosts/);
    const again = await page.getByLabel('Spec (YAML)').inputValue();
    expect(again).toMatch(/^name: lul-lab\n/);
    expect(again).toContain('test: rrul');
    await expect(page.getByLabel('File name to save the spec as').inputValue()).resolves.toBe('lul-lab.yaml');
    await shot('run-again');
  });
});
