import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { RunResults } from '@netbench/plugin-api';
import type { ComparisonResult, RunShow, Trend } from '@netbench/results';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliBin, repoRoot, runCli, tempHome } from './helpers/cli.js';
import { readResults } from './helpers/results.js';

const scenarios = join(import.meta.dirname, 'scenarios/results');

// results that a network engineer can trust at a glance — two real three-pair lab
// runs (the second with b's link shaped), read back through the built CLI.
describe('reading results like a network tool', () => {
  let home: string;
  let env: NodeJS.ProcessEnv;
  let plain: RunResults;
  let shaped: RunResults;
  const cli = (...args: string[]) => runCli(args, { env });

  beforeAll(async () => {
    home = tempHome('netbench-e2e-reading-');
    env = { NETBENCH_HOME: home };
    for (const spec of ['three-pairs.yaml', 'three-pairs-shaped.yaml']) {
      const run = await cli('run', join(scenarios, spec), '--runs-dir', join(home, 'runs'), '--progress', 'none');
      expect(run.code, run.stderr).toBe(0);
    }
    const runs = readdirSync(join(home, 'runs')).map((id) => readResults(join(home, 'runs', id)));
    plain = runs.find((r) => !r.run.specText!.includes('200mbit'))!;
    shaped = runs.find((r) => r.run.specText!.includes('200mbit'))!;
  });
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it('results show prints one line per trial with the host pair and p50/p90/p99/p99.9 columns', async () => {
    const text = await cli('results', 'show', plain.run.runId);
    expect(text.code, text.stderr).toBe(0);
    const rows = text.stdout.split('\n').filter((line) => /^t\d{4}\s/.test(line));
    expect(rows).toHaveLength(4);
    for (const [row, pair] of rows.slice(0, 3).map((r, i) => [r, ['a → b', 'a → c', 'b → c'][i]!] as const)) {
      // tx/s, then netperf's p50/p90/p99 in µs or ms, and — for the p99.9 netperf does not give.
      expect(row).toMatch(new RegExp(`^t000\\d\\s+netperf\\s+TCP_RR\\s+${pair}\\s.*\\s[\\d,]+ tx/s\\s+[\\d.]+ (µs|ms)\\s+[\\d.]+ (µs|ms)\\s+[\\d.]+ (µs|ms)\\s+—`));
    }
    expect(rows[3]).toMatch(/^t0004\s+iperf3\s+tcp\s+a → b\s.*\s[\d.]+ (Mbit|Gbit)\/s$/);
    expect(text.stdout).not.toMatch(/transactions_per_second|\de\+\d/);
    const json = JSON.parse((await cli('results', 'show', plain.run.runId, '--json')).stdout) as RunShow;
    expect(json.trials[0]).toMatchObject({ client: 'a', server: 'b', summary: { headline: { metric: 'TCP_RR_Transaction_Rate' }, latency: { source: 'tool' } } });
    // Read from the tools' own declarations, recorded per tool by the run (the percentiles named by the metric that declares them).
    expect(Object.keys(plain.run.toolMetrics ?? {}).sort()).toEqual(['iperf3', 'netperf']);
    expect(json.trials[0]?.summary.latency?.metric).toBe('TCP_RR_Latency_p50');
  });

  it('compare says once that there are no repetitions, what differs, and leaves bookkeeping out', async () => {
    const text = await cli('compare', plain.run.runId, shaped.run.runId);
    expect(text.code, text.stderr).toBe(0);
    const [table = '', ...rest] = text.stdout.split('\n\n').slice(1);
    expect(text.stdout).toMatch(/^differs: {2}hosts\.b\.link\.rate: — → 200mbit/m);
    expect(text.stdout).toMatch(/^note: +not tested: every row has one run on a side/m);
    expect(text.stdout).toMatch(/run-level bookkeeping samples \(phase_duration\) left out/);
    expect(table).toMatch(/\bratio\b/);
    expect(table).not.toMatch(/Phase duration|phase=/);
    // iperf3 intervals are one series, compared as a distribution, not "only in baseline" per interval.
    expect(table).toMatch(/Interval throughput, median of intervals\s.*\s1\/1\s+not tested: one run each/);
    expect(rest.join('\n')).not.toMatch(/only in (baseline|candidate)/);
    // The three pairs stay three rows per metric.
    expect(table.split('\n').filter((line) => /TCP_RR latency p99\s/.test(line))).toHaveLength(3);

    const json = JSON.parse((await cli('compare', plain.run.runId, shaped.run.runId, '--json')).stdout) as ComparisonResult;
    expect(json.rows.some((r) => r.metric === 'phase_duration')).toBe(false);
    expect(json.differences[0]).toEqual({ field: 'hosts.b.link.rate', source: 'spec', baseline: ['—'], candidate: ['200mbit'] });
    expect(json.rows.find((r) => r.metric === 'Interval Throughput')).toMatchObject({
      statistic: 'intervals',
      baseline: { n: 1, observations: 4 },
      candidate: { n: 1, observations: 4 },
    });
  });

  it('draws the pairs as a client × server heatmap and per-pair bars, never one pooled bar', async () => {
    const out = join(home, 'report.md');
    const report = await cli('report', plain.run.runId, '--format', 'md', '--out', out);
    expect(report.code, report.stderr).toBe(0);
    const md = readFileSync(out, 'utf8');
    expect(md).toMatch(/### TCP_RR latency p50 \(netperf\), by host pair/);
    expect(md).toMatch(/\| sending host \\ receiving host \((µs|ms)\) \| b \| c \|/);
    expect(md).toMatch(/\| configuration \| p50 \((µs|ms)\) \| p90 \((µs|ms)\) \| p99 \((µs|ms)\) \|\n\| --- \| --- \| --- \| --- \|\n\| a → b \|.*\n\| a → c \|.*\n\| b → c \|/);
    expect(md).not.toMatch(/n=3/);
  });

  it('trend follows one pair and one interval series, takes --ignore, and never pools pairs', async () => {
    const trend = await cli('results', 'trend', '--metric', 'TCP_RR_Latency_p50', '--where', 'client_host=a', '--where', 'server_host=b', '--ignore', 'benchmark', '--json');
    expect(trend.code, trend.stderr).toBe(0);
    expect((JSON.parse(trend.stdout) as Trend).points.map((p) => p.runId)).toEqual([plain.run.runId, shaped.run.runId].sort());
    const pooled = await cli('results', 'trend', '--metric', 'TCP_RR_Latency_p50', '--ignore', 'benchmark');
    expect(pooled.stderr).toMatch(/matches 3 series that differ in .*(client_host|server_host)/);
    // Interval start/end label each interval, not a series: the intervals of each run are one point.
    const intervals = JSON.parse((await cli('results', 'trend', '--metric', 'Interval Throughput', '--json')).stdout) as Trend;
    expect(intervals.points.map((p) => p.n)).toEqual([4, 4]);
  });

  it('schema and results export take --json', async () => {
    const schema = await cli('schema', '--json');
    expect(schema.code, schema.stderr).toBe(0);
    expect(JSON.parse(schema.stdout)).toMatchObject({ type: 'object', properties: { hosts: expect.any(Object) } });
    const exported = await cli('results', 'export', plain.run.runId, '--json');
    expect(exported.code, exported.stderr).toBe(0);
    expect((JSON.parse(exported.stdout) as RunResults[])[0]!.run.runId).toBe(plain.run.runId);
    const csv = join(home, 'run.csv');
    const summary = await cli('results', 'export', plain.run.runId, '--format', 'csv', '--out', csv, '--json');
    expect(JSON.parse(summary.stdout)).toMatchObject({ out: csv, format: 'csv', runs: [plain.run.runId], samples: plain.samples.length });
    expect(readFileSync(csv, 'utf8')).toMatch(/^run_id,/);
    expect((await cli('results', 'export', plain.run.runId, '--format', 'csv', '--json')).stdout).toMatch(/give --out FILE/);
  });

  it('exits 0 quietly when a reader closes the pipe early (| head -1)', () => {
    for (const args of ['schema', 'plan examples/whitepaper-inter-region.yaml']) {
      const piped = spawnSync('bash', ['-c', `set -o pipefail; "${process.execPath}" "${cliBin}" ${args} | head -1`], {
        cwd: repoRoot,
        env: { ...process.env, ...env, NO_COLOR: '1' },
        encoding: 'utf8',
      });
      expect(piped.status, `${args}: ${piped.stderr}`).toBe(0);
      expect(piped.stdout.split('\n').filter(Boolean)).toHaveLength(1);
      expect(piped.stderr).not.toMatch(/unsettled top-level await|EPIPE/);
    }
  });
});
