import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ComparisonResult } from '@netbench/results';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempHome } from './helpers/cli.js';
import { namespacesOf } from './helpers/leftovers.js';

const spec = join(import.meta.dirname, 'scenarios/results/three-reps.yaml');

// Three runs a side (one repetition each: runs are the replicates between runs): real iperf3 between
// namespaces, unshaped against the client's egress shaped to 100 Mbit/s (tbf). Mann–Whitney cannot
// decide 3 against 3; Welch's t-test on logs can.
describe('compare with 3 runs a side', () => {
  let home: string;
  let env: NodeJS.ProcessEnv;
  let ids: string[];

  beforeAll(async () => {
    home = tempHome('netbench-e2e-three-reps-');
    env = { NETBENCH_HOME: home };
    for (const set of [[], ['--set', 'hosts.client.link.rate=100mbit']]) {
      for (let i = 0; i < 3; i += 1) {
        const run = await runCli(['run', spec, '--runs-dir', join(home, 'runs'), '--progress', 'none', '--set', 'options.repetitions=1', ...set], { env });
        expect(run.code, run.stderr).toBe(0);
      }
    }
    ids = readdirSync(join(home, 'runs')).sort();
  });
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it("decides the single-number throughput row by Welch's t-test on logarithms, and says so", async () => {
    // Run ids sort by start time: the first three are unshaped.
    const baseline = ids.slice(0, 3).join(',');
    const candidate = ids.slice(3).join(',');
    const json = await runCli(['compare', baseline, candidate, '--json'], { env });
    expect(json.code, json.stderr).toBe(0);
    const result = JSON.parse(json.stdout) as ComparisonResult;
    const throughput = result.rows.find((r) => r.metric === 'Throughput')!;
    expect(throughput).toMatchObject({ statistic: 'value', baseline: { n: 3 }, candidate: { n: 3 }, decidedBy: 'welch-log', significant: true, verdict: 'worse' });
    // 3 and 3: the rank test's floor is 2 / C(6, 3) = 0.1 (higher with ties), above alpha.
    expect(throughput.mannWhitney!.minP).toBeGreaterThanOrEqual(0.1 - 1e-12);
    // 100 Mbit/s against veth speed (Gbit/s even on a busy machine): the ratio and its interval are far below 1.
    expect(throughput.welch!.p).toBeLessThan(0.05);
    expect(throughput.welch!.high).toBeLessThan(0.5);
    expect(throughput.unit).toBe('Mbits/sec');
    expect(throughput.candidate.value).toBeLessThan(110);
    // The interval series: each run's median of its intervals, so 3 values a side as well.
    expect(result.rows.find((r) => r.statistic === 'intervals')).toMatchObject({ baseline: { n: 3 }, candidate: { n: 3 } });
    expect(result.welch.rows).toBe(result.rows.filter((r) => r.decidedBy === 'welch-log').length);
    expect(result.welch.note).toMatch(/assumes each side is log-normal .* rows: iperf3 tcp Throughput/);

    const text = await runCli(['compare', baseline, candidate], { env });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(
      /^note: +Welch's t-test on logarithms decided \d+ of \d+ rows: with 3 and 3 values a side Mann–Whitney cannot reach p < 0\.05 \(smallest possible p 0\.1\); the t-test assumes/m,
    );
    expect(text.stdout).toMatch(/^iperf3 +tcp +Throughput .* worse +Welch t on logs p=\S+ \(log-normal assumed\)$/m);
    for (const id of ids) expect(namespacesOf(id)).toEqual([]);
  });
});
