import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { repoRoot, runCli, tempHome } from './helpers/cli.js';
import { dockerObjectsOf, dockerReady } from './helpers/docker.js';
import { onlyRunDir, readResults } from './helpers/results.js';

describe.runIf((await dockerReady()).ready)('netbench run reads a PKB config', () => {
  test('PKB Docker VMs run as docker containers: real netperf, no warning, the native spec kept in the run folder, nothing left behind', async () => {
    const home = tempHome('nbt-pkb-run-');
    const runsDir = join(home, 'runs');
    const result = await runCli(['run', join(repoRoot, 'tests/fixtures/pkb-local/netperf-between-containers.yaml'), '--runs-dir', runsDir, '--progress', 'plain'], {
      env: { NETBENCH_HOME: home },
    });
    expect(result.code, result.stderr + result.stdout).toBe(0);
    expect(result.stderr).not.toMatch(/netperf-between-containers\.yaml:\d+:\d+ /);
    const runDir = onlyRunDir(runsDir);
    const { run, samples } = readResults(runDir);
    expect(run.trials.map((t) => `${t.test}:${t.status}`)).toEqual(['TCP_RR:succeeded', 'TCP_STREAM:succeeded']);
    expect(run.hosts.map((h) => h.cloud)).toEqual(['docker', 'docker']);
    expect(samples.find((s) => s.metric === 'TCP_STREAM_Throughput')?.value).toBeGreaterThan(10);
    expect(readFileSync(join(runDir, 'spec.yaml'), 'utf8')).toMatch(/^# netbench spec translated from the PerfKit Benchmarker config netperf-between-containers\.yaml/);
    expect(await dockerObjectsOf(run.runId)).toEqual([]);
  });
});
