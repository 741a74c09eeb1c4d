import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { interRegionResults } from '../packages/report/src/__fixtures__/inter-region.js';
import { runCli, tempHome } from './helpers/cli.js';
import { linksOf, namespacesOf } from './helpers/leftovers.js';
import { onlyRunDir, type Results, readResults } from './helpers/results.js';

// `netbench report` on runs the real CLI made with real ping, netperf and
// iperf3 in the local lab (scenario folder tests/scenarios/report), and on
// the whitepaper's 20 × 20 inter-region matrix (a fixture: no cloud here).

interface ReportJson {
  format: string;
  files: string[];
  runIds: string[];
  charts: { id: string; kind: string; title: string }[];
  omitted: number;
}

function pngSize(file: string): { width: number; height: number } {
  const png = readFileSync(file);
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe('netbench report', () => {
  const home = tempHome('netbench-e2e-report-');
  const runsDir = join(home, 'runs');
  const out = join(home, 'out');
  let runA: Results;
  let runB: Results;

  const report = async (args: string[]) => {
    const result = await runCli(['report', ...args, '--runs-dir', runsDir, '--json'], { env: { NETBENCH_HOME: home } });
    expect(result.code, result.stderr).toBe(0);
    return JSON.parse(result.stdout) as ReportJson;
  };

  beforeAll(async () => {
    const a = await runCli(['run', 'tests/scenarios/report/run-a.yaml', '--runs-dir', join(home, 'a'), '--progress', 'none'], { env: { NETBENCH_HOME: home } });
    expect(a.code, a.stderr).toBe(0);
    const b = await runCli(['run', 'tests/scenarios/report/run-b.yaml', '--runs-dir', join(home, 'b'), '--progress', 'none'], { env: { NETBENCH_HOME: home } });
    expect(b.code, b.stderr).toBe(0);
    // One runs folder holding both, as ~/.netbench/runs would.
    mkdirSync(runsDir, { recursive: true });
    for (const dir of [onlyRunDir(join(home, 'a')), onlyRunDir(join(home, 'b'))]) {
      const results = readResults(dir);
      mkdirSync(join(runsDir, results.run.runId));
      writeFileSync(join(runsDir, results.run.runId, 'results.json'), JSON.stringify(results));
    }
    runA = readResults(onlyRunDir(join(home, 'a')));
    runB = readResults(onlyRunDir(join(home, 'b')));
  }, 240_000);

  it('chooses every kind a local run with repetitions, a streams list and iperf3 intervals calls for', async () => {
    const result = await report([runA.run.runId, '--out', join(out, 'a.html')]);
    const kinds = new Set(result.charts.map((c) => c.kind));
    expect([...kinds].sort()).toEqual(['bar', 'cdf', 'histogram', 'sweep', 'timeseries']);
    expect(result.charts.map((c) => c.id)).toEqual(
      expect.arrayContaining([
        'bar-average-latency',
        'bar-tcp-rr-latency-p50',
        'bar-throughput',
        'sweep-tcp-rr-latency-p50-netperf-by-streams',
        'cdf-average-latency-ping',
        'histogram-average-latency-ping',
        'timeseries-interval-throughput',
      ]),
    );
    expect(result.files).toEqual([join(out, 'a.html')]);

    const html = readFileSync(join(out, 'a.html'), 'utf8');
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/<script|<link|<img|@import|url\((?!#)/i);
    // Each CDF is followed by its log tail (1 − CDF).
    expect(html.match(/<svg /g)).toHaveLength(result.charts.length + result.charts.filter((c) => c.kind === 'cdf').length);
    expect(html).toContain('tail, 1 − CDF');
    for (const chart of result.charts) {
      expect(html).toContain(`id="chart-${chart.id}"`);
      expect(html).toContain(`&quot;id&quot;: &quot;${chart.id}&quot;`);
    }
    // The spec as run, the tools' versions, the hosts.
    expect(html).toContain('repetitions: 2');
    expect(html).toMatch(/netperf 2\.7\.0/);
    expect(html).toMatch(/iperf3 3\.\d+/);
    expect(html).toContain('10.213.0.');
  });

  it('writes one SVG per chart with the expected series, axes and units', async () => {
    const result = await report([runA.run.runId, '--format', 'svg', '--out', join(out, 'svg')]);
    expect(readdirSync(join(out, 'svg')).sort()).toEqual(result.charts.map((c) => `${c.id}.svg`).sort());
    const svg = (id: string) => readFileSync(join(out, 'svg', `${id}.svg`), 'utf8');
    const bars = svg('bar-average-latency');
    expect(bars).toContain('>forward<');
    expect(bars).toContain('>reverse<');
    // Metric names and units as people read them: µs or ms by magnitude, never the metric id.
    expect(bars).toMatch(/Average latency \((µs|ms)\)/);
    expect(bars).toContain('(percentile bootstrap)');
    expect(svg('sweep-tcp-rr-latency-p50-netperf-by-streams')).toMatch(/>streams</);
    expect(svg('timeseries-interval-throughput')).toContain('time since start (s)');
    expect(svg('timeseries-interval-throughput')).toContain('repetition 2');
    const cdf = svg('cdf-average-latency-ping');
    expect(cdf).toMatch(/forward \(p50 [\d.]+, p99 [\d.]+ (µs|ms)\)/);
    expect(cdf).toMatch(/latency \((µs|ms)\)/);
    // Every chart file carries its run id and date.
    expect(cdf).toContain(`run ${runA.run.runId} · `);
    expect(cdf).toMatch(/· \d{4}-\d\d-\d\d \d\d:\d\d UTC · netbench/);
  });

  it('writes PNGs: all charts into a folder, or the first one to a .png file', async () => {
    const all = await report([runA.run.runId, '--format', 'png', '--out', join(out, 'png')]);
    expect(all.files).toHaveLength(all.charts.length);
    for (const file of all.files) {
      const { width, height } = pngSize(file);
      expect(width).toBeGreaterThanOrEqual(1800);
      expect(width).toBeLessThanOrEqual(3200);
      expect(height).toBeGreaterThanOrEqual(900);
      expect(height).toBeLessThanOrEqual(2400);
    }
    const one = await runCli(['report', runA.run.runId, '--runs-dir', runsDir, '--kind', 'cdf', '--kind', 'timeseries', '--out', join(out, 'first.png')], {
      env: { NETBENCH_HOME: home },
    });
    expect(one.code, one.stderr).toBe(0);
    expect(one.stderr).toMatch(/only the first chart was written; 1 more/);
    expect(pngSize(join(out, 'first.png'))).toEqual({ width: 1800, height: 1000 });
  });

  it('writes Markdown whose image links point at the SVGs beside it', async () => {
    const result = await report([runA.run.runId, '--out', join(out, 'md', 'report.md')]);
    expect(result.format).toBe('md');
    const md = readFileSync(join(out, 'md', 'report.md'), 'utf8');
    const links = [...md.matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)].map((m) => m[1]!);
    expect(links).toHaveLength(result.charts.length);
    for (const link of links) expect(existsSync(resolve(dirname(join(out, 'md', 'report.md')), link))).toBe(true);
    expect(md).toMatch(/\| streams \(count\)|\| streams \|/);
  });

  it('compares two runs: bars per configuration both measured, one series per run', async () => {
    const result = await report([runA.run.runId, runB.run.runId.slice(-6), '--kind', 'bar', '--out', join(out, 'compare.html')]);
    expect(result.runIds).toEqual([runA.run.runId, runB.run.runId]);
    expect(result.charts.map((c) => c.id).sort()).toEqual(['bar-average-latency', 'bar-latency-p50', 'bar-latency-p99', 'bar-packet-loss']);
    const html = readFileSync(join(out, 'compare.html'), 'utf8');
    expect(html).toContain('Average Latency (ping) by run');
    expect(html).toMatch(/&quot;name&quot;: &quot;report-a&quot;[\s\S]*&quot;name&quot;: &quot;report-b&quot;/);
  });

  it("draws the whitepaper's 20 × 20 region matrix as a heatmap", async () => {
    const fixture = interRegionResults();
    mkdirSync(join(runsDir, fixture.run.runId), { recursive: true });
    writeFileSync(join(runsDir, fixture.run.runId, 'results.json'), JSON.stringify(fixture));
    const result = await report([fixture.run.runId, '--format', 'png', '--out', join(out, 'heatmap.png')]);
    expect(result.charts).toEqual([{ id: 'heatmap-average-latency-ping', kind: 'heatmap', title: 'Average Latency (ping), sending region → receiving region' }]);
    const { width, height } = pngSize(join(out, 'heatmap.png'));
    expect(width).toBeGreaterThan(2000);
    expect(height).toBeGreaterThan(1800);
    const svg = await report([fixture.run.runId, '--format', 'svg', '--out', join(out, 'heatmap.svg')]);
    const text = readFileSync(svg.files[0]!, 'utf8');
    for (const region of ['asia-east1', 'northamerica-northeast1', 'us-west2']) expect(text).toContain(`>${region}<`);
  });

  it('fails clearly on a run that does not exist or a results.json that is not one', async () => {
    const missing = await runCli(['report', 'nosuchrun', '--runs-dir', runsDir, '--out', join(out, 'x.html')], { env: { NETBENCH_HOME: home } });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no run "nosuchrun": not a folder or file, and not in .*runs/);
    const broken = join(home, 'broken');
    mkdirSync(broken);
    writeFileSync(join(broken, 'results.json'), '{"run": {"runId": "x", "trials": []}, "samples": [');
    const corrupt = await runCli(['report', broken, '--out', join(out, 'y.html')], { env: { NETBENCH_HOME: home } });
    expect(corrupt.code).toBe(1);
    expect(corrupt.stderr).toMatch(/broken\/results\.json is not valid JSON/);
    expect(existsSync(join(out, 'y.html'))).toBe(false);
  });

  it('left nothing of the two runs behind', () => {
    for (const results of [runA, runB]) {
      expect(namespacesOf(results.run.runId)).toEqual([]);
      expect(linksOf(results.run.runId.slice(-6))).toEqual([]);
    }
  });
});
