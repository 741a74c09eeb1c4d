import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runCli, tempHome } from './helpers/cli.js';
import { onlyRunDir, readResults } from './helpers/results.js';

// netperf output shapes `netbench import` refused before, imported
// through the built CLI with the format recognised (--tool auto): -O tables
// with multi-line headings, rate-only CSVs, PKB's wrapped header with the
// printed histogram, and a values line one field longer than its header.
const fixture = (name: string) => join(repoRoot, 'packages/plugins/netperf/src/__fixtures__', name);
const SHAPES: readonly (readonly [string, string, string])[] = [
  // [file, test, headline metric]
  ['loopback-omni-human-tcp_rr.txt', 'TCP_RR', 'TCP_RR_Latency_mean'],
  ['loopback-confidence-omni-human-tcp_rr.txt', 'TCP_RR', 'TCP_RR_Latency_mean'],
  ['handmade-what-a-trip-tcp_rr.txt', 'TCP_RR', 'TCP_RR_Latency_mean'],
  ['loopback-omni-human-tcp_stream.txt', 'TCP_STREAM', 'TCP_STREAM_Throughput'],
  ['loopback-omni-csv-rate-only-tcp_rr.txt', 'TCP_RR', 'TCP_RR_Transaction_Rate'],
  ['loopback-confidence-omni-csv-rate-only-tcp_rr.txt', 'TCP_RR', 'TCP_RR_Transaction_Rate'],
  ['handmade-pkb-wrapped-histogram-tcp_rr.txt', 'TCP_RR', 'TCP_RR_Latency_Histogram'],
  ['handmade-headingless-selector-tcp_rr.txt', 'TCP_RR', 'TCP_RR_Transaction_Rate'],
];

describe('netbench import: netperf shapes it used to refuse', () => {
  it('imports each, named by the test its banner says, with the histogram kept as a histogram sample', async () => {
    const home = tempHome('nbt-import-shapes-');
    const runs = join(home, 'runs');
    const result = await runCli(['import', ...SHAPES.map(([file]) => fixture(file)), '--runs-dir', runs, '--db', join(home, 'nb.db'), '--json'], { env: { NETBENCH_HOME: home } });
    expect(result.code, result.stderr + result.stdout).toBe(0);
    const body = JSON.parse(result.stdout) as { files: { tool: string; test: string; status: string; samples: number }[] };
    expect(body.files.map((f) => `${f.tool} ${f.test} ${f.status}`)).toEqual(SHAPES.map(([, test]) => `netperf ${test} succeeded`));
    const { run, samples } = readResults(onlyRunDir(runs));
    expect(run.trials.map((t) => t.test)).toEqual(SHAPES.map(([, test]) => test));
    run.trials.forEach((trial, i) => {
      const [, test, headline] = SHAPES[i]!;
      const mine = samples.filter((s) => s.trialId === trial.id);
      expect(
        mine.every((s) => s.labels.test === test),
        trial.id,
      ).toBe(true);
      expect(
        mine.map((s) => s.metric),
        trial.id,
      ).toContain(headline);
    });
    const what = samples.filter((s) => s.trialId === run.trials[2]!.id);
    expect(Object.fromEntries(what.map((s) => [s.metric, s.value]))).toMatchObject({
      TCP_RR_Transaction_Rate: 99.995,
      TCP_RR_Latency_min: 74,
      TCP_RR_Latency_mean: 94.01,
      TCP_RR_Latency_max: 1576,
      TCP_RR_Latency_stddev: 64.3,
    });
    const histogram = samples.find((s) => s.metric === 'TCP_RR_Latency_Histogram');
    expect(histogram?.histogram?.count).toBe(444658);
  });
});
