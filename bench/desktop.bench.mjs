// The desktop app's renderer in headless Chromium, served by the real --browser bridge:
// first paint of the results page with 1,000 stored runs, a 20×20 heatmap and a
// 100,000-point time series, and frame times while live samples arrive at 10/s.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRegistry } from '@netbench/core';
import { serveBrowserUi } from '@netbench/desktop';
import { LatencyHistogram } from '@netbench/plugin-api';
import { withStore } from '@netbench/results';
import { chromium } from 'playwright-core';
import { line, median, repoRoot } from './lib.mjs';

const T0 = Date.parse('2026-01-01T00:00:00Z');

function record(runId, name, i, trials = []) {
  const at = new Date(T0 + i * 60_000).toISOString();
  return {
    runId,
    name,
    status: 'succeeded',
    startedAt: at,
    finishedAt: new Date(T0 + i * 60_000 + 30_000).toISOString(),
    runDir: `/tmp/${runId}`,
    owner: 'bench',
    netbenchVersion: 'bench',
    hosts: [],
    trials,
    phases: [],
    errors: [],
    labels: {},
  };
}

const trial = (id, tool, test, params = {}) => ({
  id,
  tool,
  test,
  benchmarkName: tool,
  params,
  cell: {},
  client: 'a',
  server: 'b',
  status: 'succeeded',
  attempts: 1,
  rawFiles: [],
  sampleCount: 1,
});

function sample(runId, n, trialId, metric, value, unit, labels, extra = {}) {
  return { runId, sampleId: `${runId}-${n}`, trialId, metric, value, unit, timestamp: T0 + n, labels: { tool: labels.tool, ...labels }, ...extra };
}

function pingHistogram(seed) {
  const h = LatencyHistogram.create('us');
  for (let i = 0; i < 200; i++) h.record(50 + ((seed * 7919 + i * 104729) % 400));
  return h.encode();
}

/** A store holding 1,000 small runs, one 20×20 zone matrix run and one 100,000-interval run. */
async function fillStore(db) {
  await withStore(db, (store) => {
    for (let i = 0; i < 1000; i++) {
      const runId = `20260101-${String(i).padStart(6, '0')}-bench`;
      const samples = [
        sample(runId, 1, 't0001', 'Average Latency', 60 + (i % 17), 'us', { tool: 'ping', test: 'icmp' }),
        sample(runId, 2, 't0002', 'Throughput', 9000 + (i % 31), 'Mbits/sec', { tool: 'iperf3', test: 'tcp' }),
      ];
      store.ingest({ run: record(runId, i % 2 ? 'nightly' : 'quickstart', i, [trial('t0001', 'ping', 'icmp'), trial('t0002', 'iperf3', 'tcp')]), samples });
    }
    const zones = Array.from({ length: 20 }, (_, i) => `zone-${String(i + 1).padStart(2, '0')}`);
    const heat = '20260102-000000-heat20';
    const trials = [];
    const heatSamples = [];
    let n = 0;
    for (const from of zones)
      for (const to of zones) {
        const id = `t${String(++n).padStart(4, '0')}`;
        trials.push(trial(id, 'ping', 'icmp', { sending: from, receiving: to }));
        heatSamples.push(
          sample(heat, n, id, 'Average Latency', 100 + Math.abs(zones.indexOf(from) - zones.indexOf(to)) * 1000, 'us', {
            tool: 'ping',
            test: 'icmp',
            client_zone: from,
            server_zone: to,
          }),
        );
      }
    store.ingest({ run: record(heat, 'heatmap-20x20', 2000, trials), samples: heatSamples });
    const series = '20260103-000000-ts100k';
    const tsSamples = Array.from({ length: 100_000 }, (_, i) =>
      sample(series, i, 't0001', 'Interval Throughput', 9000 + 500 * Math.sin(i / 500) + (i % 97), 'Mbits/sec', {
        tool: 'iperf3',
        test: 'tcp',
        interval_start: i * 0.1,
        interval_end: (i + 1) * 0.1,
      }),
    );
    store.ingest({ run: record(series, 'timeseries-100k', 2001, [trial('t0001', 'iperf3', 'tcp')]), samples: tsSamples });
  });
  return { heatmapRun: '20260102-000000-heat20', seriesRun: '20260103-000000-ts100k' };
}

/** A stand-in for runSpec that replays a ping + iperf3 run at `rate` samples a second for `seconds`. */
function replayRun(rate, seconds) {
  return async (options) => {
    const runId = options.runId;
    let seq = 0;
    const emit = (e) => options.onEvent({ seq: ++seq, time: Date.now(), runId, ...e });
    emit({ type: 'run-started', name: 'live-bench', runDir: '/tmp/live-bench', trials: 2, hosts: 2, estimatedSeconds: seconds });
    emit({ type: 'phase-started', phase: 'execute' });
    emit({ type: 'trial-started', trial: 't0001', index: 0, total: 2, tool: 'iperf3', test: 'tcp', attempt: 1, estimatedSeconds: seconds });
    const samples = [];
    for (let i = 0; i < rate * seconds; i++) {
      if (options.signal?.aborted) break;
      await new Promise((r) => setTimeout(r, 1000 / rate));
      const s =
        i % 2 === 0
          ? sample(runId, i, 't0001', 'Interval Throughput', 9000 + (i % 50) * 10, 'Mbits/sec', {
              tool: 'iperf3',
              test: 'tcp',
              interval_start: i / rate,
              interval_end: (i + 1) / rate,
            })
          : sample(runId, i, 't0002', 'Average Latency', 60 + (i % 13), 'us', { tool: 'ping', test: 'icmp', direction: 'forward' }, { histogram: pingHistogram(i) });
      samples.push(s);
      emit({ type: 'sample', sample: s });
    }
    emit({ type: 'trial-finished', trial: 't0001', status: 'succeeded', durationMs: seconds * 1000, samples: samples.length });
    emit({ type: 'run-finished', status: 'succeeded', durationMs: seconds * 1000, failedTrials: 0, teardownErrors: 0 });
    return { record: record(runId, 'live-bench', 0), samples, exitCode: 0 };
  };
}

export default async function desktopBench() {
  const home = mkdtempSync(join(tmpdir(), 'netbench-bench-desktop-'));
  const db = join(home, 'netbench.db');
  const { heatmapRun, seriesRun } = await fillStore(db);
  const ui = await serveBrowserUi({
    registry: createRegistry({ searchDirs: [join(repoRoot, 'packages/cli')], userPlugins: false }),
    version: 'bench',
    db,
    runsDir: join(home, 'runs'),
    run: replayRun(10, 10),
  });
  const userDataDir = mkdtempSync(join(tmpdir(), 'netbench-bench-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    viewport: { width: 1280, height: 800 },
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(ui.server.url); // signs in (cookie)
    await page.getByTestId('runs-table').waitFor();

    // First paint of the results page: a fresh load, until the history table is drawn.
    const loads = [];
    const paints = [];
    for (let i = 0; i < 5; i++) {
      const started = Date.now();
      await page.goto(`${ui.server.origin}/?r=${i}#/results`);
      await page.locator('[data-testid=runs-table] tbody tr').first().waitFor();
      loads.push(Date.now() - started);
      paints.push(await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN));
    }
    const rows = await page.locator('[data-testid=runs-table] tbody tr').count();
    const count = await page.getByTestId('runs-count').innerText();
    line(`results page, 1,002 runs stored: first contentful paint`, `${median(paints).toFixed(0)} ms`);
    line(`results page: navigation → table drawn (${rows} rows; ${count.replace(/\.$/, '')})`, `${median(loads).toFixed(0)} ms`, '≤ 1000 ms');

    const chartRender = async (runId, kind) => {
      const times = [];
      const walls = [];
      const settled = [];
      for (let i = 0; i < 3; i++) {
        const started = Date.now();
        await page.goto(`${ui.server.origin}/?c=${kind}${i}#/run/${runId}`);
        const chart = page.locator(`[data-chart-kind=${kind}] .chart-canvas`).first();
        await chart.waitFor();
        await page.waitForFunction((k) => document.querySelector(`[data-chart-kind=${k}] .chart-canvas`)?.getAttribute('data-render-ms') !== null, kind);
        walls.push(Date.now() - started);
        times.push(Number(await chart.getAttribute('data-render-ms')));
        // Long summary tables draw their first rows with the page and the rest right after.
        await page.waitForFunction(
          () =>
            document.querySelector('[data-testid=summary-table]')?.getAttribute('aria-busy') === 'false' ||
            document.querySelector('[data-testid=summary-table]:not([aria-busy])') !== null,
        );
        settled.push(Date.now() - started);
      }
      // The first of the three is the run's first open (for the heatmap also the first run page of the
      // session: the page's code is fetched and compiled); the median is of reopening it by a fresh load.
      return { render: median(times), wall: median(walls), first: walls[0], settled: median(settled) };
    };
    // In the app a run is opened from the results list: the hash changes, nothing reloads.
    const openInApp = async (runId, kind) => {
      const walls = [];
      for (let i = 0; i < 3; i++) {
        await page.evaluate(() => {
          window.location.hash = '#/results';
        });
        await page.locator('[data-testid=runs-table] tbody tr').first().waitFor();
        const started = Date.now();
        await page.evaluate((id) => {
          window.location.hash = `#/run/${id}`;
        }, runId);
        await page.waitForFunction((k) => document.querySelector(`[data-chart-kind=${k}] .chart-canvas`)?.getAttribute('data-render-ms') != null, kind);
        walls.push(Date.now() - started);
      }
      return median(walls);
    };
    const heat = await chartRender(heatmapRun, 'heatmap');
    line('20×20 heatmap: ECharts setOption + draw', `${heat.render.toFixed(0)} ms`, '≤ 500 ms');
    line('20×20 heatmap: run page navigation → drawn (store + chartsFor)', `${heat.wall.toFixed(0)} ms`, '≤ 800 ms');
    line('20×20 heatmap: the same, first run page of the session', `${heat.first.toFixed(0)} ms`);
    line('20×20 heatmap: navigation → all 400 summary rows drawn too', `${heat.settled.toFixed(0)} ms`);
    line('20×20 heatmap: opened from the results list (no reload) → drawn', `${(await openInApp(heatmapRun, 'heatmap')).toFixed(0)} ms`);
    const series = await chartRender(seriesRun, 'timeseries');
    line('100,000-point time series: ECharts setOption + draw', `${series.render.toFixed(0)} ms`, '≤ 500 ms');
    line('100,000-point time series: navigation → drawn (store + chartsFor)', `${series.wall.toFixed(0)} ms`, '≤ 1500 ms');
    line('100,000-point time series: the same, first open of the run', `${series.first.toFixed(0)} ms`);
    line('100,000-point time series: opened from the results list → drawn', `${(await openInApp(seriesRun, 'timeseries')).toFixed(0)} ms`);

    // Live updates: a replayed run emitting 10 samples/s for 10 s; frame times measured in the page.
    const { runId } = await ui.desktop.api.startRun({
      text: 'name: live-bench\nhosts:\n  a: { cloud: local }\n  b: { cloud: local }\nbenchmarks:\n  - { tool: ping, client: a, server: b }\n',
    });
    await page.goto(`${ui.server.origin}/#/live/${runId}`);
    await page.getByTestId('live-page').waitFor();
    const frames = await page.evaluate(
      () =>
        new Promise((resolve) => {
          const deltas = [];
          let longTasks = 0;
          new PerformanceObserver((list) => {
            longTasks += list.getEntries().length;
          }).observe({ type: 'longtask', buffered: false });
          let last = performance.now();
          const end = last + 8000;
          const tick = (now) => {
            deltas.push(now - last);
            last = now;
            if (now < end) requestAnimationFrame(tick);
            else resolve({ deltas, longTasks });
          };
          requestAnimationFrame(tick);
        }),
    );
    const sorted = [...frames.deltas].sort((a, b) => a - b);
    const p = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
    const charts = await page.locator('[data-testid=live-page] .chart').count();
    line(`live view at 10 samples/s, 8 s: frames (${charts} live charts)`, `${sorted.length}`);
    line('live view: frame time p50 / p95 / p99', `${p(0.5).toFixed(1)} / ${p(0.95).toFixed(1)} / ${p(0.99).toFixed(1)} ms`, 'p95 ≤ 50 ms');
    line('live view: longest frame; long tasks (> 50 ms)', `${sorted.at(-1).toFixed(0)} ms; ${frames.longTasks}`);
    await ui.desktop.runs.wait(runId);
  } finally {
    await context.close();
    await ui.close();
    rmSync(home, { recursive: true, force: true });
    rmSync(userDataDir, { recursive: true, force: true });
  }
}
