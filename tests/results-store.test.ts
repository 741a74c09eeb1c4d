import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunResults } from '@netbench/plugin-api';
import type { ComparisonResult, StoredRunSummary, Trend } from '@netbench/results';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliResult, runCli, tempHome } from './helpers/cli.js';
import { namespacesOf } from './helpers/leftovers.js';
import { readResults } from './helpers/results.js';

const spec = join(import.meta.dirname, 'scenarios/results/ping.yaml');

// Two real runs at once into one store (created by whichever comes first), then every results command on them.
describe('results store end to end', () => {
  let home: string;
  let env: NodeJS.ProcessEnv;
  let runs: CliResult[];
  let a: RunResults;
  let b: RunResults;
  const cli = (...args: string[]) => runCli(args, { env });
  const json = async <T>(...args: string[]): Promise<T> => {
    const result = await cli(...args, '--json');
    expect(result.code, result.stderr).toBe(0);
    return JSON.parse(result.stdout) as T;
  };

  beforeAll(async () => {
    home = tempHome('netbench-e2e-results-');
    env = { NETBENCH_HOME: home };
    runs = await Promise.all([0, 1].map(() => runCli(['run', spec, '--runs-dir', join(home, 'runs'), '--progress', 'none'], { env })));
    const dirs = readdirSync(join(home, 'runs'))
      .sort()
      .map((id) => join(home, 'runs', id));
    [a, b] = dirs.map((dir) => readResults(dir)) as [RunResults, RunResults];
  });
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it('stores two runs that finished at the same time, losing nothing', async () => {
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    const list = await json<{ total: number; runs: StoredRunSummary[]; db: string }>('results', 'list');
    expect(list.db).toBe(join(home, 'netbench.db'));
    expect(list.runs.map((r) => r.runId).sort()).toEqual([a.run.runId, b.run.runId]);
    for (const run of [a, b])
      expect(list.runs.find((r) => r.runId === run.run.runId)).toMatchObject({ samples: run.samples.length, trials: 2, tools: ['ping'], name: 'results-ping' });
    // Exactly what results.json holds, both runs.
    const exported = await cli('results', 'export', a.run.runId, b.run.runId.slice(-6));
    expect(JSON.parse(exported.stdout)).toEqual([a, b]);
    expect(namespacesOf(a.run.runId.slice(0, 15))).toEqual([]);
  });

  it('filters the list by spec, tool, label and date', async () => {
    const ids = async (...filters: string[]) => (await json<{ runs: StoredRunSummary[] }>('results', 'list', ...filters)).runs.length;
    expect(await ids('--spec', 'results-ping', '--tool', 'ping', '--label', 'direction=reverse', '--label', 'count=20', '--since', '1h')).toBe(2);
    expect(await ids('--label', 'direction=sideways')).toBe(0);
    expect(await ids('--until', '2000-01-01')).toBe(0);
    expect(await ids('--tool', 'iperf3')).toBe(0);
    expect(await ids('--limit', '1')).toBe(1);
    const text = await cli('results', 'list');
    expect(text.stdout).toMatch(/run\s+spec\s+status\s+started \(UTC\)/);
    expect(text.stdout).toContain(a.run.runId);
    expect((await cli('results', 'list', '--since', 'yesterday-ish')).stderr).toMatch(/--since yesterday-ish: expected a date/);
  });

  it('shows a run per trial with p50/p90/p99 from its histograms', async () => {
    const show = await json<{ trials: { id: string; metrics: { metric: string; p50?: number; p99?: number; unit: string }[] }[] }>('results', 'show', a.run.runId.slice(-6));
    const avg = show.trials[0]!.metrics.find((m) => m.metric === 'Average Latency')!;
    const p50 = a.samples.find((s) => s.trialId === 't0001' && s.metric === 'Latency p50')!;
    expect(avg.unit).toBe('ms');
    expect(avg.p50).toBeCloseTo(p50.value, 6);
    const text = await cli('results', 'show', 'latest');
    // One line per trial with the percentiles as columns; every metric with --metrics.
    expect(text.stdout).toMatch(/trial\s+tool\s+test\s+hosts\s+parameters\s+result\s+p50\s+p90\s+p99\s+p99\.9\s+n\s+loss/);
    expect(text.stdout.split('\n').filter((line) => /^t\d{4}\s/.test(line))).toHaveLength(show.trials.length);
    // The percentiles n supports (n ≥ 5/(1−q)), then n.
    const pings = show.trials[0]!.metrics.find((m) => m.metric === 'Packets Received') as { value?: number } | undefined;
    expect(text.stdout).toMatch(/^t0001\s+ping\s+icmp\s+\S+ → \S+.*mean [\d.]+ (µs|ms)\s+[\d.]+ (µs|ms)\s+([\d.]+ (µs|ms)|—)\s+([\d.]+ (µs|ms)|—)\s+([\d.]+ (µs|ms)|—)\s+\d+/m);
    expect(pings?.value).toBeGreaterThan(0);
    expect((await cli('results', 'show', 'latest', '--metrics')).stdout).toMatch(/trial\s+tool\s+test\s+metric\s+value\s+unit\s+n\s+p50\s+p90\s+p99\s+p99\.9/);
    const missing = await cli('results', 'show', 'nosuchrun');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no run nosuchrun in the store/);
  });

  it("exports PKB newline-delimited JSON and CSV with the json and csv publishers' formats", async () => {
    const pkb = (await cli('results', 'export', a.run.runId, '--format', 'pkb-json')).stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    // The samples, then each trial's host counters as counters.* lines (docs/pkb.md).
    const counterLines = pkb.filter((l) => String(l['metric']).startsWith('counters.'));
    expect(pkb.length - counterLines.length).toBe(a.samples.length);
    expect(counterLines.length > 0).toBe(a.run.trials.some((t) => t.explain !== undefined && t.explain.hosts.length > 0));
    for (const l of counterLines) expect(l['labels']).toContain('|source:counters|');
    expect(pkb[0]).toMatchObject({ run_uri: a.run.runId, product_name: 'netbench', labels: expect.stringContaining('|direction:') });
    const out = join(home, 'both.csv');
    expect((await cli('results', 'export', 'latest~1', 'latest', '--format', 'csv', '--out', out)).code).toBe(0);
    const lines = readFileSync(out, 'utf8').split('\r\n').filter(Boolean);
    expect(lines[0]).toMatch(/^run_id,sample_id,trial_id,timestamp,metric,value,unit,/);
    expect(lines).toHaveLength(a.samples.length + b.samples.length + 1);
  });

  it('compares the two runs by percentile for histograms, and tests neither: one run each', async () => {
    const result = await json<ComparisonResult>('compare', a.run.runId, b.run.runId);
    const p99 = result.rows.find((r) => r.metric === 'Average Latency' && r.statistic === 'p99' && r.labels['direction'] === 'forward')!;
    // The run's packets are observations of one condition, not replicates: no bootstrap over them.
    expect(p99).toMatchObject({ decidedBy: null, verdict: 'no repetitions', note: 'not tested: one run each', unit: 'ms', direction: 'lower', baseline: { n: 1 } });
    expect(p99.baseline.observations).toBeGreaterThan(1);
    expect(p99.bootstrap).toBeUndefined();
    expect(result.rows.find((r) => r.metric === 'Latency p50')).toMatchObject({ verdict: 'no repetitions', decidedBy: null });
    expect(result.rows.some((r) => r.metric === 'Average Latency' && r.statistic === 'value')).toBe(false);
    const text = await cli('compare', 'latest~1', 'latest');
    expect(text.stdout).toMatch(/benchmark\s+test\s+metric\s+series\s+unit\s+baseline median\s+candidate median\s+delta\s+delta %/);
    // Metric names and units as people read them (µs or ms by magnitude); an untested row says so itself.
    expect(text.stdout).toMatch(/Average latency p99\s+direction=forward\s+(µs|ms).*\s1\/1\s+not tested: one run each/);
    expect(text.stdout).not.toContain('Average Latency');
    expect((await cli('compare', a.run.runId)).stderr).toMatch(/name the candidate/);
  });

  it('deletes runs all or none, and adds a run back from its folder', async () => {
    const refused = await cli('results', 'delete', a.run.runId, 'nosuchrun');
    expect(refused.code).toBe(1);
    expect((await json<{ total: number }>('results', 'list')).total).toBe(2);
    expect((await cli('results', 'delete', a.run.runId)).stdout).toContain(`deleted ${a.run.runId}`);
    expect((await json<{ runs: StoredRunSummary[] }>('results', 'list')).runs.map((r) => r.runId)).toEqual([b.run.runId]);
    const added = await cli('results', 'add', a.run.runDir);
    expect(added.stdout).toContain(`stored ${a.run.runId}`);
    expect(JSON.parse((await cli('results', 'export', a.run.runId)).stdout)).toEqual([a]);
  });

  it('trend flags a regression of the newest run and fails CI with exit 7', async () => {
    // History made from the real run: five runs an hour apart with a little noise, then a newest one.
    const trendDb = join(home, 'trend.db');
    const add = (i: number, scale: number) => {
      const runId = `20300101-0${i}0000-trend${i}`;
      const dir = join(home, 'trend', runId);
      mkdirSync(dir, { recursive: true });
      const startedAt = new Date(Date.UTC(2030, 0, 1, i)).toISOString();
      const samples = a.samples.map((s, n) => ({ ...s, runId, sampleId: `${runId}-${n + 1}`, value: s.value * scale, labels: { ...s.labels, run_id: runId } }));
      writeFileSync(join(dir, 'results.json'), JSON.stringify({ run: { ...a.run, runId, startedAt, finishedAt: startedAt, runDir: dir }, samples }));
      return dir;
    };
    const history = [1, 1.02, 0.98, 1.01, 0.99].map((scale, i) => add(i, scale));
    expect((await cli('results', 'add', ...history, '--db', trendDb)).code).toBe(0);

    const ambiguous = await cli('results', 'trend', '--metric', 'Latency p50', '--db', trendDb);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toMatch(/matches 2 series that differ in direction \(forward, reverse\): narrow it with --where direction=VALUE/);

    const gate = ['results', 'trend', '--metric', 'Latency p50', '--where', 'direction=forward', '--fail-on-regression', '10', '--db', trendDb];
    await cli('results', 'add', add(5, 1.0), '--db', trendDb);
    const steady = await cli(...gate, '--json');
    expect(steady.code, steady.stderr).toBe(0);
    expect((JSON.parse(steady.stdout) as Trend).points.at(-1)).toMatchObject({ flag: null });

    await cli('results', 'add', add(6, 1.5), '--db', trendDb);
    const regressed = await cli(...gate);
    expect(regressed.code).toBe(7);
    expect(regressed.stdout).toMatch(/trend6\s.*\+50\.0%.*regression/);
    expect(regressed.stdout).toMatch(/fails --fail-on-regression 10%/);
    const trend = JSON.parse((await cli(...gate, '--json')).stdout) as Trend;
    expect(trend).toMatchObject({ direction: 'lower', failed: true, unit: 'ms' });
    expect(trend.points).toHaveLength(7);
    expect(trend.points.at(-1)!.change!.deltaPct).toBeCloseTo(50, 6);
    // A higher threshold than the regression passes.
    expect((await cli(...gate.slice(0, -4), '--fail-on-regression', '60', '--db', trendDb)).code).toBe(0);
  });
});
