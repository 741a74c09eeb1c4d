// A staged run on `cloud: docker` (docs/long-studies.md) against a real
// dockerd: provision → execute → teardown in three invocations keeps the same
// containers between them and leaves nothing; a container removed between
// stages stops execute before any trial, and teardown still removes the rest;
// what a killed invocation left running in a container is stopped before
// --resume runs the cut-off trial again.

import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli, tempHome } from './helpers/cli.js';
import { docker, dockerObjectsOf, dockerReady } from './helpers/docker.js';
import { onlyRunDir, readEvents, readResults, waitFor } from './helpers/results.js';

const spec = join(import.meta.dirname, 'scenarios/docker-stages/spec.yaml');
const state = await dockerReady();
const json = <T>(stdout: string): T => JSON.parse(stdout) as T;

let home: string;
let env: NodeJS.ProcessEnv;
beforeAll(() => {
  home = tempHome('netbench-e2e-docker-stages-');
  env = { NETBENCH_HOME: home };
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** Host pids of the processes named `comm` in the container of `host` in run `runId`. */
async function processesIn(runId: string, host: string, comm: string): Promise<string[]> {
  const [container] = await docker.listContainers({ filters: { label: [`org.netbench.run-id=${runId}`, `org.netbench.host=${host}`] } });
  if (!container) return [];
  const top = (await docker.getContainer(container.Id).top({ ps_args: '-eo pid,comm' })) as { Processes?: string[][] };
  return (top.Processes ?? []).filter((p) => p[1] === comm).map((p) => p[0]!);
}

async function containerIds(runId: string): Promise<string[]> {
  const list = await docker.listContainers({ all: true, filters: { label: [`org.netbench.run-id=${runId}`] } });
  return list.map((c) => c.Id).sort();
}

describe.runIf(state.ready)('a staged run on docker', () => {
  it('provision → execute → teardown in three invocations uses the same containers and leaves nothing', async () => {
    const runsDir = join(home, 'staged');
    const provision = await runCli(['run', spec, '--stage', 'provision', '--runs-dir', runsDir, '--json'], { env });
    expect(provision.code, provision.stderr).toBe(0);
    const { runId, kept } = json<{ runId: string; kept: boolean }>(provision.stdout);
    expect(kept).toBe(true);
    const made = await containerIds(runId);
    expect(made).toHaveLength(2);
    expect((await dockerObjectsOf(runId)).filter((o) => o.startsWith('network '))).toHaveLength(1);

    const execute = await runCli(['run', '--resume', runId, '--stage', 'execute', '--runs-dir', runsDir, '--json'], { env });
    expect(execute.code, execute.stderr).toBe(0);
    expect(json<{ trials: { status: string }[] }>(execute.stdout).trials.map((t) => t.status)).toEqual(['succeeded']);
    // The very containers provision made, found from the ledger: none made or replaced in between.
    expect(await containerIds(runId)).toEqual(made);

    const teardown = await runCli(['run', '--resume', runId, '--stage', 'teardown', '--runs-dir', runsDir, '--json'], { env });
    expect(teardown.code, teardown.stderr).toBe(0);
    expect(await dockerObjectsOf(runId)).toEqual([]);
    const { run, samples } = readResults(join(runsDir, runId));
    expect(run.status).toBe('succeeded');
    const rtt = samples.filter((s) => s.metric === 'Average Latency');
    expect(rtt).toHaveLength(1);
    expect(rtt[0]!.value).toBeGreaterThan(0);
    expect(rtt[0]!.labels.client_cloud).toBe('docker');
  });

  it('--resume after kill -9 stops the iperf3 the killed invocation left in the containers before running the trial again', async () => {
    const runsDir = join(home, 'strays');
    const longRun = join(import.meta.dirname, 'scenarios/docker-long-run/spec.yaml');
    const { child, done } = startCli(['run', longRun, '--set', 'benchmarks.1.duration=15', '--runs-dir', runsDir, '--progress', 'none'], { env });
    const runDir = await waitFor(
      () =>
        existsSync(runsDir)
          ? (() => {
              try {
                return onlyRunDir(runsDir);
              } catch {
                return undefined;
              }
            })()
          : undefined,
      60_000,
      'the run folder',
    );
    const runId = runDir.split('/').pop()!;
    await waitFor(() => (readEvents(runDir).some((e) => e.type === 'trial-started' && e.index === 1) ? true : undefined), 90_000, 'the iperf3 trial');
    let strays: string[] = [];
    for (const deadline = Date.now() + 30_000; strays.length === 0 && Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
      strays = await processesIn(runId, 'client', 'iperf3');
    }
    expect(strays.length, 'iperf3 in the client container').toBeGreaterThan(0);
    child.kill('SIGKILL');
    await done;
    // Docker keeps an exec's process running when its client dies: really left behind.
    expect(await processesIn(runId, 'client', 'iperf3')).toEqual(expect.arrayContaining(strays));
    const before = readEvents(runDir).length;

    const resuming = startCli(['run', '--resume', runId, '--stage', 'execute', '--runs-dir', runsDir, '--json'], { env });
    // While the cut-off trial runs again (the strays would still run for seconds), none of them is beside it.
    await waitFor(
      () =>
        readEvents(runDir)
          .slice(before)
          .some((e) => e.type === 'trial-started' && e.index === 1)
          ? true
          : undefined,
      90_000,
      'the iperf3 trial again',
    );
    expect((await processesIn(runId, 'client', 'iperf3')).filter((pid) => strays.includes(pid))).toEqual([]);
    const resumed = await resuming.done;
    expect(resumed.code, resumed.stderr).toBe(0);
    const warnings = readEvents(runDir)
      .slice(before)
      .flatMap((e) => (e.type === 'warning' ? [e.message] : []));
    expect(warnings.join('\n')).toMatch(/docker: host client: stopped \d+ process(es)? an earlier invocation of run .* left running in .*\d+ iperf3/);
    expect(json<{ trials: { status: string }[] }>(resumed.stdout).trials.map((t) => t.status)).toEqual(['succeeded', 'succeeded']);

    const teardown = await runCli(['run', '--resume', runId, '--stage', 'teardown', '--runs-dir', runsDir, '--json'], { env });
    expect(teardown.code, teardown.stderr).toBe(0);
    expect(await dockerObjectsOf(runId)).toEqual([]);
  });

  it('a container removed between stages stops execute before any trial; teardown still removes the rest', async () => {
    const runsDir = join(home, 'gone');
    const provision = await runCli(['run', spec, '--stage', 'provision', '--runs-dir', runsDir, '--json'], { env });
    expect(provision.code, provision.stderr).toBe(0);
    const { runId } = json<{ runId: string }>(provision.stdout);
    const server = `nb-${runId}-server`;
    await docker.getContainer(server).remove({ force: true });
    const execute = await runCli(['run', '--resume', runId, '--stage', 'execute', '--runs-dir', runsDir], { env });
    expect(execute.code).toBe(5);
    expect(execute.stderr).toMatch(new RegExp(`docker: host server: container ${server} is gone`));
    expect(readEvents(join(runsDir, runId)).filter((e) => e.type === 'trial-started')).toEqual([]);
    const teardown = await runCli(['run', '--resume', runId, '--stage', 'teardown', '--runs-dir', runsDir], { env });
    expect(teardown.code, teardown.stderr).toBe(0);
    expect(await dockerObjectsOf(runId)).toEqual([]);
  });

  it("a container of the same name that does not carry the run's labels is refused", async () => {
    const runsDir = join(home, 'impostor');
    const provision = await runCli(['run', spec, '--stage', 'provision', '--runs-dir', runsDir, '--json'], { env });
    expect(provision.code, provision.stderr).toBe(0);
    const { runId } = json<{ runId: string }>(provision.stdout);
    const client = `nb-${runId}-client`;
    await docker.getContainer(client).remove({ force: true });
    const impostor = await docker.createContainer({ name: client, Image: 'netbench/tools:bookworm', Entrypoint: ['sleep'], Cmd: ['infinity'] });
    try {
      await impostor.start();
      const execute = await runCli(['run', '--resume', runId, '--stage', 'execute', '--runs-dir', runsDir], { env });
      expect(execute.code).toBe(5);
      expect(execute.stderr).toMatch(/docker: host client: container .* does not carry the labels .*it is not this run's/);
    } finally {
      await impostor.remove({ force: true });
    }
    const teardown = await runCli(['run', '--resume', runId, '--stage', 'teardown', '--runs-dir', runsDir], { env });
    expect(teardown.code, teardown.stderr).toBe(0);
    expect(await dockerObjectsOf(runId)).toEqual([]);
  });
});
