import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CliResult, runCli, tempHome } from './helpers/cli.js';
import { linksOf, namespacesOf, toolProcessesOf } from './helpers/leftovers.js';
import { metric, onlyRunDir, type Results, readEvents, readResults } from './helpers/results.js';

// The README's quickstart, shortened with --set so the suite stays quick.
describe('quickstart on the local lab', () => {
  let result: CliResult;
  let runDir: string;
  let results: Results;
  let home: string;

  beforeAll(async () => {
    home = tempHome();
    result = await runCli(
      [
        'run',
        'examples/quickstart.yaml',
        '--runs-dir',
        join(home, 'runs'),
        '--progress',
        'plain',
        '--set',
        'benchmarks.0.count=50',
        '--set',
        'benchmarks.1.duration=2',
        '--set',
        'benchmarks.2.duration=2',
      ],
      { env: { NETBENCH_HOME: home } },
    );
    runDir = onlyRunDir(join(home, 'runs'));
    results = readResults(runDir);
  });

  it('succeeds and prints a summary table', () => {
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/trial\s+tool\s+test/);
    expect(result.stdout).toMatch(/TCP_RR/);
    expect(results.run.status).toBe('succeeded');
    expect(results.run.trials.every((t) => t.status === 'succeeded')).toBe(true);
  });

  it('prints no warning of its own (its trials are pinned, so A/A runs do not differ by CPU placement)', () => {
    expect(result.stderr).not.toMatch(/warning/i);
    expect(results.samples.filter((s) => s.trialId && s.labels.tool !== 'ping').every((s) => s.labels.cpu_client === 0 && s.labels.cpu_server === 1)).toBe(true);
  });

  it('runs ping both ways, netperf TCP_RR and TCP_STREAM, and iperf3', () => {
    const tests = results.run.trials.map((t) => `${t.tool}:${t.test}`).sort();
    expect(tests).toEqual(['iperf3:tcp', 'netperf:TCP_RR', 'netperf:TCP_STREAM', 'ping:icmp', 'ping:icmp']);
  });

  it('measures sane latency percentiles and throughput', () => {
    const p50 = metric(results.samples, 'TCP_RR_Latency_p50', 'netperf')[0];
    expect(p50?.unit).toBe('us');
    expect(p50!.value).toBeGreaterThan(1);
    expect(p50!.value).toBeLessThan(5000);
    const ping = metric(results.samples, 'Latency p99', 'ping');
    expect(ping).toHaveLength(2);
    for (const sample of ping) expect(sample.value).toBeGreaterThan(0);
    const avg = metric(results.samples, 'Average Latency', 'ping')[0];
    expect(avg?.histogram?.count).toBe(50);
    const throughput = metric(results.samples, 'TCP_STREAM_Throughput', 'netperf')[0];
    expect(throughput!.value).toBeGreaterThan(100);
  });

  it('labels every sample with the run, the tool version and the parameters', () => {
    for (const sample of results.samples.filter((s) => s.trialId)) {
      expect(sample.labels.run_id).toBe(results.run.runId);
      expect(typeof sample.labels[`${sample.labels.tool}_version`]).toBe('string');
    }
    const rr = metric(results.samples, 'TCP_RR_Transaction_Rate', 'netperf')[0]!;
    expect(rr.labels.duration).toBe(2);
  });

  it('keeps every raw output, the events, the ledger and the published files', () => {
    for (const trial of results.run.trials) {
      expect(trial.rawFiles.length).toBeGreaterThan(0);
      for (const file of trial.rawFiles) expect(existsSync(join(runDir, file))).toBe(true);
    }
    const events = readEvents(runDir);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events.at(-1)?.type).toBe('run-finished');
    expect(readFileSync(join(runDir, 'ledger.jsonl'), 'utf8')).toMatch(/"netns"/);
    const files = readdirSync(runDir);
    expect(files).toEqual(expect.arrayContaining(['results.json', 'events.jsonl', 'ledger.jsonl', 'results.csv', 'results.pkb.jsonl']));
  });

  it('leaves nothing behind', () => {
    expect(namespacesOf(results.run.runId)).toEqual([]);
    expect(linksOf(results.run.runId.slice(-6))).toEqual([]);
    expect(toolProcessesOf(home)).toEqual([]);
  });
});
