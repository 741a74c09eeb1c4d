#!/usr/bin/env node
// Screenshots of the app's and the report's views from one results store, for
// docs/screenshots/views/: the same runs shot with two builds (a checkout
// before a change and after it) show what changed.
//   scripts/node24 node scripts/shoot-views.mjs --tree DIR --suffix after --db FILE --runs-dir DIR --ids ids.json --out docs/screenshots/views
// `ids.json` names the runs: { lul, http, overlay: [6], tunnels, bars, knee, liveSpec, trend }.
// Each view is a 1280-wide PNG reduced to 256 colours (pngquant);
// a view the build lacks is shot as it shows (a "Not found" page says so).
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values: o } = parseArgs({
  options: {
    tree: { type: 'string' },
    suffix: { type: 'string' },
    db: { type: 'string' },
    'runs-dir': { type: 'string' },
    ids: { type: 'string' },
    out: { type: 'string' },
    only: { type: 'string' },
  },
});
const tree = resolve(o.tree);
const out = resolve(o.out);
const ids = JSON.parse(readFileSync(o.ids, 'utf8'));
const only = o.only ? new Set(o.only.split(',')) : undefined;
mkdirSync(out, { recursive: true });
const { chromium } = createRequire(join(tree, 'package.json'))('playwright-core');
const netbench = join(tree, 'scripts/netbench');
const env = { ...process.env, NETBENCH_DB: o.db };

function cli(args) {
  return execFileSync(netbench, args, { env, encoding: 'utf8', maxBuffer: 64 << 20 });
}

function serve() {
  return new Promise((done, fail) => {
    const child = spawn(netbench, ['ui', '--browser', '--port', '0', '--json', '--db', o.db, '--runs-dir', o['runs-dir']], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    child.stdout.on('data', (d) => {
      text += d;
      const line = text.split('\n').find((l) => l.startsWith('{'));
      if (line) done({ child, url: JSON.parse(line).url });
    });
    child.on('exit', (code) => fail(new Error(`netbench ui exited ${code}`)));
  });
}

/** Saves a shot as <view>-<suffix>.png, 256 colours, and says its size. */
async function save(view, shoot) {
  const raw = join(tmpdir(), `${view}-${o.suffix}-raw.png`);
  await shoot(raw);
  const file = join(out, `${view}-${o.suffix}.png`);
  execFileSync('pngquant', ['--force', '--quality', '40-85', '--output', file, raw]);
  console.log(`${view}: ${file} (${Math.round(statSync(file).size / 1024)} KB)`);
}

const MAX_HEIGHT = 2600;
/** The page from its top, or from the element `from` names (a report's charts), at most MAX_HEIGHT tall. */
async function pageShot(page, view, from) {
  await page.waitForTimeout(800);
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  const top = from ? await page.evaluate((selector) => Math.max(0, (document.querySelector(selector)?.getBoundingClientRect().top ?? 0) + window.scrollY - 8), from) : 0;
  await save(view, (path) => page.screenshot({ path, fullPage: true, clip: { x: 0, y: top, width: 1280, height: Math.min(height - top, MAX_HEIGHT) } }));
}

async function settle(page) {
  await page.waitForLoadState('networkidle').catch(() => {});
  await page.waitForFunction(() => ![...document.querySelectorAll('[role=status]')].some((e) => /Loading/.test(e.textContent ?? '')), null, { timeout: 60_000 }).catch(() => {});
  // Charts draw after their data: wait for every canvas the page has so far.
  await page.waitForFunction(() => [...document.querySelectorAll('.chart-canvas')].every((c) => c.hasAttribute('data-render-ms')), null, { timeout: 60_000 }).catch(() => {});
  await page.waitForTimeout(500);
}

async function main() {
  const ui = await serve();
  const profile = mkdtempSync(join(tmpdir(), 'shoot-views-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
    viewport: { width: 1280, height: 900 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const base = ui.url;
  const go = async (hash) => {
    await page.goto(`${base.split('#')[0]}#/${hash}`);
    await settle(page);
  };
  await page.goto(base);
  await settle(page);
  const views = {
    'run-page-summary': async () => {
      await go(`run/${ids.http}`);
      await pageShot(page, 'run-page-summary');
    },
    'bufferbloat-run-page': async () => {
      await go(`run/${ids.lul}`);
      await pageShot(page, 'bufferbloat-run-page');
    },
    'lul-all-scaled': async () => {
      await go(`run/${ids.lul}`);
      const chart = page
        .locator('.chart')
        .filter({ hasText: /all scaled/i })
        .first();
      const target = (await chart.count()) > 0 ? chart : page.locator('.chart').first();
      await target.scrollIntoViewIfNeeded();
      await page.waitForTimeout(500);
      // The crosshair over the stall's neighbourhood: the tooltip lists every series.
      const box = await target
        .locator('.chart-canvas')
        .first()
        .boundingBox()
        .catch(() => null);
      if (box) await page.mouse.move(box.x + box.width * 0.55, box.y + box.height * 0.4);
      await page.waitForTimeout(400);
      await save('lul-all-scaled', (path) => target.screenshot({ path }));
    },
    'overlay-app': async () => {
      await go(`overlay/${ids.overlay.slice(0, 3).join('/')}`);
      await pageShot(page, 'overlay-app');
    },
    'compare-export': async () => {
      await go(`compare/${ids.overlay[0]}/${ids.overlay[1]}`);
      await page
        .getByTestId('compare-table')
        .waitFor({ timeout: 60_000 })
        .catch(() => {});
      await settle(page);
      await pageShot(page, 'compare-export');
    },
    trend: async () => {
      await page.goto(`${base.split('#')[0]}#/${ids.trend ?? 'trend'}`);
      await settle(page);
      await page.waitForTimeout(1500);
      await settle(page);
      await pageShot(page, 'trend');
    },
    'wizard-cloud-pairs': async () => {
      await go('new');
      await page
        .getByRole('radio', { name: /Throughput/ })
        .first()
        .check()
        .catch(() => {});
      await page.getByRole('button', { name: 'Next: where' }).click();
      await page.getByTestId('site-row').first().waitFor();
      const place = (i) => page.getByTestId('site-row').nth(i).locator('select').first();
      await place(0).selectOption('cloud:aws');
      await place(1).selectOption('cloud:aws');
      await page.getByRole('button', { name: 'Add a place' }).click();
      await place(2).selectOption('cloud:gcp');
      await page.getByRole('button', { name: 'Add a place' }).click();
      await place(3).selectOption('cloud:gcp');
      await page.waitForTimeout(1500);
      await pageShot(page, 'wizard-cloud-pairs');
    },
    'wizard-review-preflight': async () => {
      // Follows wizard-cloud-pairs: the same answers, reviewed.
      await page.getByRole('button', { name: 'Next: tests' }).click();
      await page.getByRole('button', { name: 'Next: review' }).click();
      await page
        .getByTestId('spec-status')
        .waitFor({ timeout: 30_000 })
        .catch(() => {});
      await page.waitForTimeout(4000);
      await pageShot(page, 'wizard-review-preflight');
    },
    'dark-bars': async () => {
      await go(`run/${ids.bars ?? ids.tunnels}`);
      await page.getByRole('button', { name: /Switch to dark theme/ }).click();
      await settle(page);
      // One run's bars of few configurations are folded under "More charts" (the tiles say them): open it.
      const more = page.locator('[data-testid=more-charts] > summary');
      if ((await more.count()) > 0) {
        await more.click();
        await settle(page);
      }
      const bar = page.locator('figure.chart[data-chart-kind=bar]').first();
      const target = (await bar.count()) > 0 ? bar : page.locator('.chart').first();
      await target.scrollIntoViewIfNeeded();
      // Clear of the sticky header.
      await page.evaluate(() => window.scrollBy(0, -80));
      await page.waitForTimeout(600);
      await save('dark-bars', (path) => target.screenshot({ path }));
      await page.getByRole('button', { name: /Switch to light theme/ }).click();
    },
    'live-view': async () => {
      const text = readFileSync(ids.liveSpec, 'utf8');
      const started = await page.evaluate(async (spec) => {
        const res = await fetch('api/call', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ method: 'startRun', arg: { text: spec } }),
          credentials: 'same-origin',
        });
        return res.json();
      }, text);
      const runId = started.value?.runId;
      if (!runId) throw new Error(`startRun: ${JSON.stringify(started).slice(0, 300)}`);
      await go(`live/${runId}`);
      await page.getByTestId('run-ended').waitFor({ timeout: 180_000 });
      await settle(page);
      await pageShot(page, 'live-view');
    },
  };
  for (const [view, shoot] of Object.entries(views)) {
    if (only && !only.has(view)) continue;
    try {
      await shoot();
    } catch (error) {
      console.log(`${view}: FAILED ${String(error).split('\n')[0]}`);
    }
  }

  // Reports: `netbench report` of the sweep, of several runs, and `results show` of the tunnels run.
  // Several runs' reports are long: the overlay and the sweep are shot from their charts.
  const reports = {
    'http-sweep-report': [[ids.http], '#charts'],
    'report-overlay': [ids.overlay.slice(0, 3), '[id^="chart-cdf"]'],
    'lul-report': [[ids.lul]],
    // oha at constant offered rates: latency against offered rate, and where the knee is marked.
    ...(ids.knee ? { 'http-knee-report': [[ids.knee], '#chart-sweep-http-latency-p50-http-by-rate'] } : {}),
  };
  for (const [view, [runs, from]] of Object.entries(reports)) {
    if (only && !only.has(view)) continue;
    try {
      const html = join(profile, `${view}.html`);
      cli(['report', ...runs, '-o', html, '--runs-dir', o['runs-dir']]);
      await page.goto(`file://${html}`);
      await page.waitForTimeout(2500);
      await pageShot(page, view, from);
    } catch (error) {
      console.log(`${view}: FAILED ${String(error).split('\n')[0]}`);
    }
  }
  // The comparison of two sides of three runs each, exported with its verdicts (`netbench compare A,B,C D,E,F --out`).
  if (!only || only.has('compare-report')) {
    try {
      const html = join(profile, 'compare-report.html');
      cli(['compare', ids.overlay.slice(0, 3).join(','), ids.overlay.slice(3, 6).join(','), '--out', html]);
      await page.goto(`file://${html}`);
      await page.waitForTimeout(2500);
      await pageShot(page, 'compare-report');
    } catch (error) {
      console.log(`compare-report: FAILED ${String(error).split('\n')[0]}`);
    }
  }
  if (!only || only.has('results-show-tunnels')) {
    try {
      writeFileSync(join(out, `results-show-tunnels-${o.suffix}.txt`), cli(['results', 'show', ids.tunnels]));
    } catch (error) {
      console.log(`results-show-tunnels: FAILED ${String(error).split('\n')[0]}`);
    }
  }
  await context.close();
  ui.child.kill('SIGINT');
}

await main();
process.exit(0);
