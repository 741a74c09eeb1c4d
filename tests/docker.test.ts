import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runCli, startCli, tempHome } from './helpers/cli.js';
import { containerIdsOf, dockerObjectsOf, dockerReady } from './helpers/docker.js';
import { toolProcessesInContainers } from './helpers/leftovers.js';
import { metric, onlyRunDir, readEvents, readResults, waitFor } from './helpers/results.js';

// `cloud: docker` end to end through the built CLI against a real dockerd:
// containers on a per-run bridge network, tools run through Docker exec,
// shaping with tc on the container's link, teardown after success, SIGINT,
// and kill -9 followed by `netbench cleanup`. Without a daemon (or without the
// image) the run must fail with a message that says how to fix it.
const example = join(repoRoot, 'examples/docker-containers.yaml');
const longRun = join(repoRoot, 'tests/scenarios/docker-long-run/spec.yaml');
const short = ['--set', 'benchmarks.1.duration=2', '--set', 'benchmarks.2.duration=2', '--set', 'benchmarks.3.duration=3'];
const state = await dockerReady();

describe('cloud: docker', () => {
  it.runIf(process.env.NETBENCH_REQUIRE_DOCKER === '1')('has a daemon and the tools image where NETBENCH_REQUIRE_DOCKER=1 (CI)', () => {
    expect(state.why).toBe('dockerd answers and the tools image is built');
  });

  it('with no daemon at DOCKER_HOST, a run stops before creating anything and says how to fix it', async () => {
    const home = tempHome();
    const env = { NETBENCH_HOME: home, DOCKER_HOST: `unix://${join(home, 'no-docker.sock')}` };
    const result = await runCli(['run', example, '--runs-dir', join(home, 'runs'), ...short], { env });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/docker: the Docker daemon at unix:\/\/.*no-docker\.sock does not answer .*To fix: start it/);
    const { run } = readResults(onlyRunDir(join(home, 'runs')));
    expect(run.hosts ?? []).toHaveLength(0);
  });

  describe.runIf(state.ready)('with dockerd', () => {
    // Every run of this file: at the end none has an object left (other runs on the machine may have theirs).
    const runIds: string[] = [];

    it('measures ping, netperf and iperf3 between two containers, unshaped and shaped to 200 Mbit/s, and leaves nothing', async () => {
      const home = tempHome();
      const result = await runCli(['run', example, '--runs-dir', join(home, 'runs'), ...short], { env: { NETBENCH_HOME: home } });
      expect(result.code, result.stderr).toBe(0);
      const { run, samples } = readResults(onlyRunDir(join(home, 'runs')));
      runIds.push(run.runId);
      expect(run.trials.map((t) => `${t.tool}:${t.test}:${t.status}`)).toEqual([
        'ping:icmp:succeeded',
        'netperf:TCP_RR:succeeded',
        'netperf:TCP_STREAM:succeeded',
        'iperf3:tcp:succeeded',
        'iperf3:tcp:succeeded',
      ]);
      const rtt = metric(samples, 'Average Latency', 'ping');
      expect(rtt[0]?.value).toBeGreaterThan(0);
      expect(rtt[0]?.labels.client_cloud).toBe('docker');
      expect(String(rtt[0]?.labels.host_client_image_id)).toMatch(/^[0-9a-f]{12}$/);
      // `nproc` in the container at provision: its cpuset (none set here: the machine's CPUs).
      expect(rtt[0]?.labels.host_client_cpu_count).toBe(String(availableParallelism()));
      expect(metric(samples, 'TCP_STREAM_Throughput', 'netperf')[0]?.value).toBeGreaterThan(0);
      const total = (trialId: string) =>
        metric(samples, 'Throughput', 'iperf3').filter((s) => s.trialId === trialId && s.labels.stream === undefined && s.labels.interval_start === undefined);
      const [unshaped] = total('t0004');
      const shaped = total('t0005');
      expect(shaped.length).toBeGreaterThan(0);
      for (const sample of shaped) {
        expect(sample.labels.host_client_link_rate).toBe('200mbit');
        expect(sample.value).toBeGreaterThan(180);
        expect(sample.value).toBeLessThan(220);
      }
      // The unshaped pair is not held to the shaped container's rate.
      expect(unshaped?.value).toBeGreaterThan(220);
      expect(await dockerObjectsOf(run.runId)).toEqual([]);
    });

    it('an image that is not on this machine is refused before anything is made (nothing is pulled)', async () => {
      const home = tempHome();
      const result = await runCli(['run', example, '--runs-dir', join(home, 'runs'), ...short, '--set', 'hosts.server.image=netbench/absent:none'], {
        env: { NETBENCH_HOME: home },
      });
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(/docker: image netbench\/absent:none \(hosts server\) is not on the Docker daemon .* netbench pulls no images/);
      const { runId } = readResults(onlyRunDir(join(home, 'runs'))).run;
      runIds.push(runId);
      expect(await dockerObjectsOf(runId)).toEqual([]);
    });

    it('SIGINT mid-execute removes the containers and the network', async () => {
      const home = tempHome();
      const runsDir = join(home, 'runs');
      const { child, done } = startCli(['run', longRun, '--runs-dir', runsDir, '--progress', 'plain'], { env: { NETBENCH_HOME: home } });
      const runDir = await waitFor(() => (existsSync(runsDir) ? safeRunDir(runsDir) : undefined), 60_000, 'the run folder');
      await waitFor(() => (readEvents(runDir).some((e) => e.type === 'trial-started' && e.index === 1) ? true : undefined), 60_000, 'the second trial');
      const runId = runDir.split('/').pop()!;
      runIds.push(runId);
      expect(await dockerObjectsOf(runId)).toHaveLength(3);
      // The run's iperf3 processes, named by their containers (another lab's iperf3 may run on the machine meanwhile).
      const ids = await containerIdsOf(runId);
      await expect.poll(() => toolProcessesInContainers(ids, /^iperf3\b/).length, { timeout: 20_000 }).toBeGreaterThan(0);
      child.kill('SIGINT');
      const result = await done;
      expect(result.code, result.stderr).toBe(130);
      expect(readResults(runDir).run.status).toBe('interrupted');
      expect(await dockerObjectsOf(runId)).toEqual([]);
      expect(toolProcessesInContainers(ids, /^iperf3\b/)).toEqual([]);
    });

    it('kill -9 mid-execute, then `netbench cleanup <run>` and `cleanup --all` leave nothing', async () => {
      const home = tempHome();
      const runsDir = join(home, 'runs');
      const env = { NETBENCH_HOME: home };
      const ids: string[] = [];
      const killed = async (dir: string) => {
        const { child, done } = startCli(['run', longRun, '--runs-dir', dir, '--progress', 'none'], { env });
        const runDir = await waitFor(() => (existsSync(dir) ? safeRunDir(dir) : undefined), 60_000, 'the run folder');
        await waitFor(() => (readEvents(runDir).some((e) => e.type === 'trial-started' && e.index === 1) ? true : undefined), 60_000, 'the second trial');
        const runId = runDir.split('/').pop()!;
        runIds.push(runId);
        ids.push(...(await containerIdsOf(runId)));
        child.kill('SIGKILL');
        await done;
        return runId;
      };
      const first = await killed(runsDir);
      expect(await dockerObjectsOf(first)).toHaveLength(3); // really left behind
      const cleanup = await runCli(['cleanup', first, '--runs-dir', runsDir, '--json'], { env });
      expect(cleanup.code, cleanup.stderr).toBe(0);
      const report = JSON.parse(cleanup.stdout) as { deleted: { type: string }[]; failed: unknown[] };
      expect(report.failed).toEqual([]);
      expect(report.deleted.map((r) => r.type).sort()).toEqual(['container', 'container', 'network']);
      expect(await dockerObjectsOf(first)).toEqual([]);

      // A run whose folder is elsewhere: --all finds its objects by their run-id label.
      const second = await killed(join(home, 'elsewhere'));
      expect(await dockerObjectsOf(second)).toHaveLength(3);
      const all = await runCli(['cleanup', '--all', '--runs-dir', runsDir, '--json'], { env });
      expect(all.code, all.stderr).toBe(0);
      expect(await dockerObjectsOf(second)).toEqual([]);
      expect(toolProcessesInContainers(ids, /^iperf3\b/)).toEqual([]);
    });

    it('leaves no object of any of its runs behind', async () => {
      expect(runIds).toHaveLength(5);
      for (const runId of runIds) expect(await dockerObjectsOf(runId), runId).toEqual([]);
    });
  });
});

function safeRunDir(runsDir: string): string | undefined {
  try {
    return onlyRunDir(runsDir);
  } catch {
    return undefined;
  }
}
