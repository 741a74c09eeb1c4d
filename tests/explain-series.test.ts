// Per-interval CPU reads of a long trial (docs/explain.md, "Counters read"):
// a real 12 s iperf3 trial on the local lab through the built CLI, its
// stored series checked against the trial's own clock and its pinned CPU,
// then the chart of it in the HTML report and on the app's run page, in
// Debian's Chromium. Screenshots go to test-artifacts/explain
// (docs/screenshots/explain-cpu-chart-*.png are copies of them).
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRegistry } from '@netbench/core';
import { createDesktopApi, startBrowserServer } from '@netbench/desktop';
import { afterAll, describe, expect, it } from 'vitest';
import { launchChromium } from './helpers/chromium.js';
import { runCli, tempHome } from './helpers/cli.js';
import { onlyRunDir, readResults } from './helpers/results.js';

const repo = resolve(import.meta.dirname, '..');
const spec = join(import.meta.dirname, 'scenarios/explain/explain-series.yaml');
const screens = process.env['NETBENCH_SCREENS'] ?? join(repo, 'test-artifacts/explain');

interface Series {
  start: number;
  interval: number;
  t: number[];
  machine?: string;
  cpus: { cpu: number; user: number[]; system: number[]; softirq: number[]; irq: number[]; steal: number[]; idle: number[] }[];
}
type StoredHost = { host: string; role: string; cpuSeries?: Series };

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

describe("CPU utilisation at the tool's interval", () => {
  const home = tempHome('netbench-e2e-explain-series-');
  const runs = join(home, 'runs');
  mkdirSync(screens, { recursive: true });
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it("a 12 s iperf3 trial stores each end's per-CPU series over the whole trial, and the pinned client CPU reads busy", async () => {
    const result = await runCli(['run', spec, '--runs-dir', runs, '--progress', 'none'], { env: { NETBENCH_HOME: home } });
    expect(result.code, result.stderr).toBe(0);
    const { run, samples } = readResults(onlyRunDir(runs));
    const trial = run.trials[0]!;
    expect(trial.status, trial.error).toBe('succeeded');
    expect(trial.explain?.notes ?? []).not.toContainEqual(expect.stringMatching(/per-interval/));
    const hosts = trial.explain!.hosts as unknown as StoredHost[];
    expect(hosts.map((h) => h.role).sort()).toEqual(['client', 'server']);
    const intervals = samples.filter((s) => s.metric === 'Interval Throughput' && s.labels['stream'] === undefined);
    expect(intervals.length).toBeGreaterThanOrEqual(10);
    const toolEnd = Math.max(...intervals.map((s) => s.timestamp));
    for (const { role, cpuSeries: series } of hosts) {
      expect(series, role).toBeDefined();
      expect(series!.interval).toBe(1);
      // Covers the trial: from before the tool's first interval to after its last (one read a second, a tick skipped at most now and then).
      const trialStart = Date.parse(trial.startedAt!);
      expect(series!.start).toBeGreaterThanOrEqual(trialStart - 1);
      expect(series!.start).toBeLessThanOrEqual(trialStart + 2_000);
      expect(series!.start + 1000 * series!.t.at(-1)!).toBeGreaterThanOrEqual(toolEnd - 1_500);
      expect(series!.t.length).toBeGreaterThanOrEqual(10);
      const steps = series!.t.map((t, i) => t - (series!.t[i - 1] ?? 0));
      expect(median(steps)).toBeGreaterThan(0.8);
      expect(median(steps)).toBeLessThan(1.5);
      for (const column of series!.cpus) {
        const sums = column.idle.map((_, i) => column.user[i]! + column.system[i]! + column.softirq[i]! + column.irq[i]! + column.steal[i]! + column.idle[i]!);
        for (const sum of sums) expect(Math.abs(sum - 100)).toBeLessThanOrEqual(0.5);
      }
    }
    // Lab namespaces share this machine: one boot id.
    expect(new Set(hosts.map((h) => h.cpuSeries!.machine)).size).toBe(1);
    // iperf3's client, pinned to CPU 0, sends as fast as the veth pair takes it: CPU 0 is busy while it runs
    // (the interior of the trial, start-up and wind-down left out).
    const client = hosts.find((h) => h.role === 'client')!.cpuSeries!;
    const cpu0 = client.cpus.find((c) => c.cpu === 0)!;
    const toolStart = Math.min(...intervals.map((s) => s.timestamp - 1000 * Number(s.labels['interval_end'])));
    const inside = client.t.map((t, i) => ({ at: client.start + 1000 * t, busy: 100 - cpu0.idle[i]! })).filter((p) => p.at > toolStart + 2_500 && p.at < toolEnd - 1_000);
    expect(inside.length).toBeGreaterThanOrEqual(6);
    expect(median(inside.map((p) => p.busy))).toBeGreaterThanOrEqual(80);
  }, 120_000);

  it("the HTML report draws the trial's CPUs beside its throughput, on one time axis", async () => {
    const out = join(home, 'report.html');
    const { run } = readResults(onlyRunDir(runs));
    const report = await runCli(['report', run.runId, '--runs-dir', runs, '--out', out], { env: { NETBENCH_HOME: home } });
    expect(report.code, report.stderr).toBe(0);
    const browser = await launchChromium('explain-series-report');
    try {
      await browser.page.goto(`file://${out}`);
      const figure = browser.page.locator('figure[id^="chart-cpu-"]').first();
      await figure.waitFor();
      const text = await figure.innerText();
      expect(text).toMatch(/CPU busy and Interval Throughput over time/);
      expect(text).toMatch(/client\+server cpu0/);
      await figure.scrollIntoViewIfNeeded();
      await figure.screenshot({ path: join(screens, 'explain-cpu-chart-report.png') });
    } finally {
      await browser.close();
    }
  }, 60_000);

  it("the app's run page draws it too", async () => {
    const appHome = mkdtempSync(join(tmpdir(), 'nbt-explain-series-app-'));
    const desktop = createDesktopApi({
      registry: createRegistry({ searchDirs: [join(repo, 'packages/cli')], userPlugins: false }),
      version: 'test',
      shell: 'browser',
      db: join(appHome, 'netbench.db'),
      runsDir: join(appHome, 'runs'),
      specsDir: join(appHome, 'specs'),
    });
    const server = await startBrowserServer({ api: desktop.api, subscribe: (listener) => desktop.runs.subscribe(listener) });
    const browser = await launchChromium('explain-series-app');
    try {
      const { runId } = await desktop.api.startRun({ text: readFileSync(spec, 'utf8') });
      expect((await desktop.runs.wait(runId)).status).toBe('succeeded');
      await browser.page.setViewportSize({ width: 1280, height: 900 });
      // Sign in with the token, then open the run's page.
      await browser.page.goto(server.url);
      await browser.page.getByTestId('results-page').waitFor();
      await browser.page.goto(`${server.origin}/#/run/${runId}`);
      await browser.page.getByTestId('run-page').waitFor();
      const chart = browser.page.locator('[data-chart-id="cpu-t0001"]');
      await chart.locator('.chart-canvas[data-render-ms]').waitFor({ timeout: 30_000 });
      expect(await chart.innerText()).toMatch(/Each CPU's busy share/);
      // Its data table: the throughput and each CPU, one line each.
      await chart.getByRole('button', { name: 'Data' }).click();
      const names = new Set(await chart.locator('tbody tr td:first-child').allInnerTexts());
      expect(names).toEqual(new Set(['Interval Throughput', 'client+server cpu0', 'client+server cpu1']));
      await chart.getByRole('button', { name: 'Hide data' }).click();
      // Beside the trial's own throughput chart, drawn from the same results.
      await expect(browser.page.locator('[data-chart-id="timeseries-interval-throughput"]').count()).resolves.toBe(1);
      await chart.scrollIntoViewIfNeeded();
      await chart.screenshot({ path: join(screens, 'explain-cpu-chart-app.png') });
    } finally {
      await browser.close();
      await desktop.dispose();
      await server.close();
      rmSync(appHome, { recursive: true, force: true });
    }
  }, 120_000);
});
