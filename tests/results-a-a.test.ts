import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type ComparisonResult, compareResults } from '@netbench/results';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempHome } from './helpers/cli.js';
import { namespacesOf } from './helpers/leftovers.js';

// A/A with real runs: one small spec (ping, netperf TCP_RR for 1 s, 3 repetitions, CPUs pinned)
// run RUNS times in the local lab, then compared with itself every way. Nothing differs, so
// every "better"/"worse"/"higher"/"lower" is a false alarm. Single runs must never get one
// (their packets and repetitions share the run's moment and load); runs as replicates may,
// at most alpha of the time.
const spec = join(import.meta.dirname, 'scenarios/results/a-a.yaml');
const RUNS = 6;
const ALARMS = new Set(['better', 'worse', 'higher', 'lower']);

describe('A/A: the same spec against itself', () => {
  let home: string;
  let env: NodeJS.ProcessEnv;
  let ids: string[];

  beforeAll(async () => {
    home = tempHome('nbt-a-a-');
    env = { NETBENCH_HOME: home };
    for (let i = 0; i < RUNS; i += 1) {
      const run = await runCli(['run', spec, '--runs-dir', join(home, 'runs'), '--progress', 'none'], { env });
      expect(run.code, run.stderr).toBe(0);
    }
    ids = readdirSync(join(home, 'runs')).sort();
  }, 150_000);
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  const compare = (baseline: readonly string[], candidate: readonly string[]) =>
    compareResults({ db: join(home, 'netbench.db'), baseline: { runs: baseline }, candidate: { runs: candidate } });
  const alarms = (result: ComparisonResult) => result.rows.filter((r) => ALARMS.has(r.verdict)).length;

  it('gives no verdict between any two single runs: "not tested: one run each"', async () => {
    let rows = 0;
    for (let i = 0; i < ids.length; i += 1) {
      for (let j = i + 1; j < ids.length; j += 1) {
        const result = await compare([ids[i]!], [ids[j]!]);
        rows += result.rows.length;
        expect(alarms(result), `${ids[i]} against ${ids[j]}`).toBe(0);
        for (const row of result.rows)
          expect(row).toMatchObject({ verdict: 'no repetitions', significant: null, note: 'not tested: one run each', replicates: 'run', baseline: { n: 1 }, candidate: { n: 1 } });
      }
    }
    // ping's per-packet histograms and netperf's figures: a row for each.
    expect(rows).toBeGreaterThan(15 * 10);
    const text = await runCli(['compare', ids[0]!, ids[1]!], { env });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/baseline median +candidate median/);
    expect(text.stdout).toMatch(/^ping +icmp +Average latency p50 .* 1\/1 +not tested: one run each\s*$/m);
    expect(text.stdout).not.toMatch(/ (better|worse) /);
    expect(text.stdout).not.toContain('the baseline is the newer side');
    // The first run given is the baseline, whatever its age; the header says when it is the newer one.
    const reversed = await runCli(['compare', ids[1]!, ids[0]!], { env });
    expect(reversed.stdout).toMatch(/^baseline +\S*/);
    expect(reversed.stdout.split('\n')[0]).toContain(ids[1]!);
    expect(reversed.stdout).toMatch(/^note: +the baseline is the newer side \(compare BASELINE CANDIDATE: the first run given is the baseline\)$/m);
    for (const id of ids) expect(namespacesOf(id)).toEqual([]);
  });

  it('raises a false alarm in at most alpha of the rows with 3 runs a side as replicates', async () => {
    // Every split of the six runs into two halves (10): Welch's t-test on logarithms decides 3 against 3.
    let rows = 0;
    let raised = 0;
    for (const half of halves(ids)) {
      const result = await compare(
        half,
        ids.filter((id) => !half.includes(id)),
      );
      for (const row of result.rows) expect(row.baseline.n).toBe(3);
      rows += result.rows.filter((r) => r.significant !== null).length;
      raised += alarms(result);
    }
    const rate = raised / rows;
    console.log(`A/A false-alarm rate, 3 runs a side: ${raised} of ${rows} tested rows (${rate.toFixed(3)})`);
    expect(rows).toBeGreaterThan(100);
    expect(rate).toBeLessThanOrEqual(0.05);
    // The CLI takes several runs a side, joined by commas.
    const json = await runCli(['compare', ids.slice(0, 3).join(','), ids.slice(3).join(','), '--json'], { env });
    expect(json.code, json.stderr).toBe(0);
    const result = JSON.parse(json.stdout) as ComparisonResult;
    expect(result.baseline.runs).toEqual(ids.slice(0, 3));
    expect(result.rows.some((r) => r.decidedBy === 'welch-log')).toBe(true);
  });
});

/** Every set of half the ids that holds the first one (so each split is counted once). */
function halves(ids: readonly string[]): string[][] {
  const size = ids.length / 2;
  const out: string[][] = [];
  const pick = (from: number, chosen: string[]) => {
    if (chosen.length === size) {
      out.push(chosen);
      return;
    }
    for (let i = from; i < ids.length; i += 1) pick(i + 1, [...chosen, ids[i]!]);
  };
  pick(1, [ids[0]!]);
  return out;
}
