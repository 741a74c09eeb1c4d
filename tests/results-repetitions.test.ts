import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { RunResults } from '@netbench/plugin-api';
import type { ComparisonResult } from '@netbench/results';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempHome } from './helpers/cli.js';
import { readResults } from './helpers/results.js';

const spec = join(import.meta.dirname, 'scenarios/results/repetitions.yaml');

// Repetitions in a seeded random order give compare the data its tests need.
describe('repetitions and randomised order', () => {
  let home: string;
  let env: NodeJS.ProcessEnv;
  let baseline: RunResults;
  let candidate: RunResults;
  const order = async (...sets: string[]) => {
    const plan = await runCli(['plan', spec, '--json', ...sets.flatMap((s) => ['--set', s])], { env });
    expect(plan.code, plan.stderr).toBe(0);
    return (JSON.parse(plan.stdout) as { trials: { benchmarkName: string; params: { repetition: number } }[] }).trials.map((t) => `${t.benchmarkName}#${t.params.repetition}`);
  };

  beforeAll(async () => {
    home = tempHome('netbench-e2e-reps-');
    env = { NETBENCH_HOME: home };
    for (const set of ['options.seed=42', 'options.seed=43']) {
      const run = await runCli(['run', spec, '--runs-dir', join(home, 'runs'), '--progress', 'none', '--set', set], { env });
      expect(run.code, run.stderr).toBe(0);
    }
    // By seed, not by sorting run ids: ids order runs only to the second.
    const runs = readdirSync(join(home, 'runs')).map((id) => readResults(join(home, 'runs', id)));
    const bySeed = (seed: string) => runs.find((r) => String(r.run.labels['order_seed']) === seed)!;
    [baseline, candidate] = [bySeed('42'), bySeed('43')];
  });
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it('plans every trial once per repetition in an order fixed by the seed', async () => {
    const seeded = await order();
    expect(seeded).toHaveLength(12);
    expect([...seeded].sort()).toEqual([1, 2, 3, 4, 5, 6].flatMap((r) => [`ping#${r}`, `ping-big#${r}`]).sort());
    expect(await order()).toEqual(seeded);
    expect(await order('options.seed=43')).not.toEqual(seeded);
    expect(await order('options.order=plan')).toEqual([1, 2, 3, 4, 5, 6].flatMap((r) => [`ping#${r}`, `ping-big#${r}`]));
  });

  it('runs them in that order and labels every sample with its repetition', async () => {
    expect(baseline.run.trials.map((t) => `${t.benchmarkName}#${t.params['repetition']}`)).toEqual(await order());
    expect(baseline.run.labels).toMatchObject({ repetitions: 6, order: 'random', order_seed: 42 });
    const reps = new Set(baseline.samples.filter((s) => s.trialId).map((s) => s.labels['repetition']));
    expect([...reps].sort()).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('compare counts two runs as one replicate each, however many repetitions they hold', async () => {
    const result = await runCli(['compare', baseline.run.runId, candidate.run.runId, '--json'], { env });
    expect(result.code, result.stderr).toBe(0);
    const { rows } = JSON.parse(result.stdout) as ComparisonResult;
    // The repetitions of one run share its moment and its machine's load: between runs, the run is the replicate.
    const p50 = rows.find((r) => r.metric === 'Latency p50' && r.labels['benchmark'] === 'ping')!;
    expect(p50).toMatchObject({
      replicates: 'run',
      verdict: 'no repetitions',
      note: 'not tested: one run each',
      baseline: { n: 1, observations: 6 },
      candidate: { n: 1, observations: 6 },
    });
    const hist = rows.find((r) => r.metric === 'Average Latency' && r.statistic === 'p90' && r.labels['benchmark'] === 'ping-big')!;
    expect(hist).toMatchObject({ replicates: 'run', verdict: 'no repetitions', baseline: { n: 1 } });
    expect(rows.every((r) => r.significant === null)).toBe(true);
    // The two benchmarks stay apart: ping-big's size is part of what was measured.
    expect(
      rows
        .filter((r) => r.metric === 'Latency p50')
        .map((r) => r.labels['size'])
        .sort(),
    ).toEqual([1400, 56]);
  });

  it('compares the two benchmarks of one run by their labels, ignoring what tells them apart', async () => {
    const result = await runCli(
      [
        'compare',
        '--baseline',
        'benchmark=ping',
        '--baseline',
        `run_id=${baseline.run.runId}`,
        '--candidate',
        'benchmark=ping-big',
        '--candidate',
        `run_id=${baseline.run.runId}`,
        '--ignore',
        'size',
        '--metric',
        'Latency p50',
        '--json',
      ],
      { env },
    );
    expect(result.code, result.stderr).toBe(0);
    const comparison = JSON.parse(result.stdout) as ComparisonResult;
    expect(comparison.baseline.selection).toBe(`benchmark=ping run_id=${baseline.run.runId}`);
    expect(comparison.rows).toHaveLength(1);
    // Both sides from one run, interleaved in it: its repetitions are the replicates.
    expect(comparison.rows[0]).toMatchObject({ replicates: 'repetition', baseline: { n: 6 }, candidate: { n: 6 }, mannWhitney: { n1: 6, n2: 6 } });
  });
});
