import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, startCli, tempHome } from './helpers/cli.js';
import { linksOf, namespacesOf, toolProcessesOf } from './helpers/leftovers.js';
import { onlyRunDir, readEvents, readResults, waitFor } from './helpers/results.js';

const spec = join(import.meta.dirname, 'scenarios/long-run/spec.yaml');

describe('an interrupted run', () => {
  it('SIGINT mid-execute tears down and keeps the samples taken so far', async () => {
    const home = tempHome();
    const runsDir = join(home, 'runs');
    const { child, done } = startCli(['run', spec, '--runs-dir', runsDir, '--progress', 'plain'], { env: { NETBENCH_HOME: home } });
    // Wait until the first trial has finished and the second (long) one is running.
    const runDir = await waitFor(() => (existsSync(runsDir) ? safeRunDir(runsDir) : undefined), 60_000, 'the run folder');
    await waitFor(() => (readEvents(runDir).some((e) => e.type === 'trial-started' && e.index === 1) ? true : undefined), 60_000, 'the second trial');
    child.kill('SIGINT');
    const result = await done;
    expect(result.code, result.stderr).toBe(130);
    expect(result.stderr).toMatch(/tearing down/);
    const results = readResults(runDir);
    expect(results.run.status).toBe('interrupted');
    expect(results.samples.filter((s) => s.trialId === 't0001').length).toBeGreaterThan(0);
    expect(namespacesOf(results.run.runId)).toEqual([]);
    expect(linksOf(results.run.runId.slice(-6))).toEqual([]);
    expect(toolProcessesOf(home)).toEqual([]);
  });

  it('kill -9 mid-execute, then `netbench cleanup <run>` leaves nothing', async () => {
    const home = tempHome();
    const runsDir = join(home, 'runs');
    const { child, done } = startCli(['run', spec, '--runs-dir', runsDir, '--progress', 'none'], { env: { NETBENCH_HOME: home } });
    const runDir = await waitFor(() => (existsSync(runsDir) ? safeRunDir(runsDir) : undefined), 60_000, 'the run folder');
    await waitFor(() => (readEvents(runDir).some((e) => e.type === 'trial-started' && e.index === 1) ? true : undefined), 60_000, 'the second trial');
    child.kill('SIGKILL');
    await done;
    const runId = runDir.split('/').pop()!;
    expect(namespacesOf(runId).length).toBeGreaterThan(0); // really left behind
    expect(toolProcessesOf(home).length).toBeGreaterThan(0); // its netserver too, named by the run's NETBENCH_HOME
    const cleanup = await runCli(['cleanup', runId, '--runs-dir', runsDir, '--json'], { env: { NETBENCH_HOME: home } });
    expect(cleanup.code, cleanup.stderr).toBe(0);
    const report = JSON.parse(cleanup.stdout) as { deleted: { type: string }[]; failed: unknown[] };
    expect(report.failed).toEqual([]);
    expect(report.deleted.map((r) => r.type)).toEqual(expect.arrayContaining(['netns', 'bridge']));
    expect(namespacesOf(runId)).toEqual([]);
    expect(linksOf(runId.slice(-6))).toEqual([]);
    expect(toolProcessesOf(home)).toEqual([]);
    // A second cleanup finds nothing more and still succeeds (deletes are idempotent).
    const again = await runCli(['cleanup', runId, '--runs-dir', runsDir, '--json'], { env: { NETBENCH_HOME: home } });
    expect(again.code).toBe(0);
  });
});

describe('netbench cleanup --all', () => {
  it('deletes what a killed run left, by naming and ledger, and spares a run that is still going', async () => {
    const home = tempHome();
    const runsDir = join(home, 'runs');
    const env = { NETBENCH_HOME: home };
    const live = startCli(['run', spec, '--runs-dir', runsDir, '--progress', 'none'], { env });
    const liveDir = await waitFor(() => (existsSync(runsDir) ? safeRunDir(runsDir) : undefined), 60_000, 'the live run folder');
    await waitFor(() => (readEvents(liveDir).some((e) => e.type === 'trial-started') ? true : undefined), 60_000, 'the live run to execute');
    const killedRunsDir = join(home, 'killed-runs');
    const killed = startCli(['run', spec, '--runs-dir', killedRunsDir, '--progress', 'none'], { env });
    const killedDir = await waitFor(() => (existsSync(killedRunsDir) ? safeRunDir(killedRunsDir) : undefined), 60_000, 'the killed run folder');
    await waitFor(() => (readEvents(killedDir).some((e) => e.type === 'trial-started') ? true : undefined), 60_000, 'the killed run to execute');
    killed.child.kill('SIGKILL');
    await killed.done;
    const killedId = killedDir.split('/').pop()!;
    const liveId = liveDir.split('/').pop()!;

    // The killed run's folder is elsewhere: --all must find its namespaces by their run-id naming.
    const cleanup = await runCli(['cleanup', '--all', '--runs-dir', runsDir, '--json'], { env });
    expect(cleanup.code, cleanup.stderr).toBe(0);
    expect(namespacesOf(killedId)).toEqual([]);
    expect(linksOf(killedId.slice(-6))).toEqual([]);
    expect(namespacesOf(liveId).length).toBeGreaterThan(0);

    live.child.kill('SIGINT');
    expect((await live.done).code).toBe(130);
    expect(namespacesOf(liveId)).toEqual([]);
    expect(toolProcessesOf(home)).toEqual([]);
  });
});

function safeRunDir(runsDir: string): string | undefined {
  try {
    return onlyRunDir(runsDir);
  } catch {
    return undefined;
  }
}
