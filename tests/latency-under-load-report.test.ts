import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Sample } from '@netbench/plugin-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, type TestBrowser } from './helpers/chromium.js';
import { repoRoot, runCli, tempHome } from './helpers/cli.js';
import { onlyRunDir, readResults } from './helpers/results.js';

// A short rrul through the CLI on the lab (100 Mbit/s links) with all three
// probes (ping, netperf UDP_RR, irtt), then its report in Chromium: the summary metrics, and flent's plots drawn by the
// one renderer. Screenshots go to test-artifacts/latency-under-load/.
const artifacts = join(repoRoot, 'test-artifacts/latency-under-load');
const SPEC = `name: lul-report
description: a short rrul on the lab
hosts:
  client: { cloud: local, link: { rate: 100mbit } }
  server: { cloud: local, link: { rate: 100mbit } }
benchmarks:
  - { tool: load, test: rrul, client: client, server: server, duration: 4, idle: 1.5, probes: [icmp, udp, irtt] }
`;

let browser: TestBrowser;
let home: string;
let samples: readonly Sample[];
let runDir: string;

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  home = tempHome();
  const spec = join(home, 'rrul.yaml');
  writeFileSync(spec, SPEC);
  const run = await runCli(['run', spec, '--runs-dir', join(home, 'runs')], { env: { NETBENCH_HOME: home } });
  expect(run.code, run.stderr + run.stdout).toBe(0);
  runDir = onlyRunDir(join(home, 'runs'));
  samples = readResults(runDir).samples;
  browser = await launchChromium('lul-report');
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

const summary = (metric: string, probe?: string) => samples.find((s) => s.metric === metric && s.labels.flow === 'summary' && (probe === undefined || s.labels.probe === probe));

describe('an rrul run and its report', () => {
  it('reports idle and loaded latency per probe, their increase, RPM and goodput', () => {
    expect(summary('latency_idle_p50', 'icmp')?.labels).toMatchObject({ tool: 'load', test: 'rrul', idle: 1.5, duration: 4 });
    // The lab's 100 Mbit/s tbf queue fills under 8 flows: loaded RTTs sit well above idle ones.
    expect(summary('latency_loaded_p50', 'icmp')!.value).toBeGreaterThan(summary('latency_idle_p50', 'icmp')!.value);
    expect(summary('latency_loaded_p50', 'icmp')!.labels.load_direction).toBe('both');
    expect(summary('latency_increase', 'icmp')!.value).toBeGreaterThan(0);
    expect(summary('responsiveness')).toMatchObject({ unit: 'RPM', labels: { probe: 'icmp+irtt+udp' } });
    // irtt: a round trip like the others, and both one-way delays, idle and loaded.
    expect(summary('latency_loaded_p50', 'irtt')!.value).toBeGreaterThan(summary('latency_idle_p50', 'irtt')!.value);
    for (const way of ['send_delay', 'receive_delay']) {
      expect(summary(`${way}_idle_p50`, 'irtt')!.value).toBeGreaterThan(0);
      expect(summary(`${way}_loaded_p50`, 'irtt')!.labels.probe_count).toBeGreaterThan(5);
      expect(summary(`${way}_increase`, 'irtt')).toBeDefined();
    }
    // The irtt flow's own final samples: irtt's server ran on the server namespace for the run.
    expect(samples.find((s) => s.metric === 'rtt_p50' && s.labels.flow === 'irtt')!.value).toBeGreaterThan(0);
    const flows = samples.filter((s) => s.metric === 'goodput');
    expect(flows.map((s) => s.labels.flow).sort()).toEqual(['down-1', 'down-2', 'down-3', 'down-4', 'up-1', 'up-2', 'up-3', 'up-4']);
    expect(summary('goodput_total')!.value).toBeCloseTo(
      flows.reduce((sum, s) => sum + s.value, 0),
      1,
    );
    // Each direction is one 100 Mbit/s link: not more (flows counted twice), not nothing.
    for (const direction of ['goodput_upload', 'goodput_download']) {
      expect(summary(direction)!.value).toBeGreaterThan(20);
      expect(summary(direction)!.value).toBeLessThan(110);
    }
  });

  it('draws the all-scaled time series, the idle vs loaded CDF and the box plots in Chromium', async () => {
    const out = join(home, 'report.html');
    const report = await runCli(['report', runDir, '-o', out], { env: { NETBENCH_HOME: home } });
    expect(report.code, report.stderr).toBe(0);
    const { page } = browser;
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    await page.goto(`file://${out}`);
    for (const id of ['all-scaled', 'cdf-icmp', 'cdf-irtt', 'box-throughput', 'box-rtt']) {
      const chart = page.locator(`[id^="chart-load-${id}"]`).first();
      await expect.poll(() => chart.count()).toBe(1);
      await chart.scrollIntoViewIfNeeded();
      await chart.screenshot({ path: join(artifacts, `${id}.png`) });
      // Drawn, not an empty frame: the figure has an SVG with paths.
      expect(await chart.locator('svg path').count()).toBeGreaterThan(5);
    }
    const text = await page.locator('[id^="chart-load-all-scaled"]').first().innerText();
    for (const legend of ['download', 'upload', 'ICMP RTT', 'UDP RTT', 'irtt RTT', 'irtt send delay', 'irtt receive delay']) expect(text).toContain(legend);
    expect(errors).toEqual([]);
  });
});
