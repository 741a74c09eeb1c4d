import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Sample } from '@netbench/plugin-api';
import { chartsFor } from '@netbench/results';
import { describe, expect, it } from 'vitest';
import { runCli, startCli, tempHome } from './helpers/cli.js';
import { setupRequired } from './helpers/require-setup.js';
import { onlyRunDir, readEvents, readResults, waitFor } from './helpers/results.js';

const SCENARIO = 'tests/scenarios/http';
const one = (samples: readonly Sample[], trialId: string, metric: string, kind?: string) => {
  const found = samples.filter((s) => s.trialId === trialId && s.metric === metric && s.labels.error_kind === kind);
  expect(found, `${trialId} ${metric}`).toHaveLength(1);
  return found[0]!.value;
};

// `netbench run` with real nginx, wrk and ab between two lab namespaces.
describe('netbench run: HTTP load against nginx in the lab', () => {
  it('sweeps wrk connections × keep-alive, runs ab over HTTPS, and counts 404s as errors', async () => {
    const home = tempHome();
    const runsDir = join(home, 'runs');
    const result = await runCli(['run', `${SCENARIO}/spec.yaml`, '--runs-dir', runsDir], { env: { NETBENCH_HOME: home } });
    expect(result.code, result.stderr).toBe(0);
    const runDir = onlyRunDir(runsDir);
    const results = readResults(runDir);
    const { samples } = results;
    const trials = results.run.trials;
    expect(trials.map((t) => [t.test, t.status])).toEqual([
      ['wrk', 'succeeded'],
      ['wrk', 'succeeded'],
      ['wrk', 'succeeded'],
      ['wrk', 'succeeded'],
      ['ab', 'succeeded'],
      ['wrk', 'succeeded'],
    ]);
    // Served requests: every trial but the 404 one has successes and no errors.
    for (const id of ['t0001', 't0002', 't0003', 't0004', 't0005']) {
      expect(one(samples, id, 'HTTP_Request_Rate')).toBeGreaterThan(0);
      expect(one(samples, id, 'HTTP_Errors')).toBe(0);
    }
    expect(one(samples, 't0005', 'HTTP_Successes')).toBe(500);
    // 100 KiB objects over TLS: ab's byte count says the bodies came through. Against ab's own requests/s (all
    // 500 succeeded), which shares the transfer rate's time base: HTTP_Request_Rate divides by the printed
    // "Time taken" (whole ms), off by up to 0.5 % in a run this short.
    expect(one(samples, 't0005', 'HTTP_Transfer_Rate')).toBeGreaterThan((one(samples, 't0005', 'ab_Requests_Per_Second_All_Statuses') * 100 * 1024 * 8) / 1e6);
    // 404s: answered, never successes.
    expect(one(samples, 't0006', 'HTTP_Requests')).toBeGreaterThan(0);
    expect(one(samples, 't0006', 'HTTP_Request_Rate')).toBe(0);
    expect(one(samples, 't0006', 'HTTP_Errors', 'status')).toBe(one(samples, 't0006', 'HTTP_Requests'));
    expect(readEvents(runDir).some((e) => e.type === 'warning' && /t0006: no request .* succeeded/.test(e.message))).toBe(true);
    // Keep-alive off shows in the labels, and the sweep charts draw requests/s against connections.
    expect(samples.find((s) => s.trialId === 't0003')?.labels.keepalive).toBe(false);
    const charts = chartsFor([results]);
    const sweep = charts.find((c) => c.kind === 'sweep' && c.metric === 'HTTP_Request_Rate' && c.param === 'connections');
    expect(sweep, charts.map((c) => c.id).join(', ')).toBeDefined();
  });

  it('a server that refuses connections: the trial fails with the reason and the run exits non-zero', async () => {
    const home = tempHome();
    const runsDir = join(home, 'runs');
    const result = await runCli(['run', `${SCENARIO}/refused.yaml`, '--runs-dir', runsDir], { env: { NETBENCH_HOME: home } });
    expect(result.code).not.toBe(0);
    const [trial] = readResults(onlyRunDir(runsDir)).run.trials;
    expect(trial?.status).toBe('failed');
    expect(JSON.stringify(trial)).toMatch(/Connection refused/);
  });

  it('a client that times out (the server link shaped to 8 kbit/s): the trial fails with the timeout ab reports, raw output kept', async () => {
    const home = tempHome();
    const runsDir = join(home, 'runs');
    const result = await runCli(['run', `${SCENARIO}/slow-link.yaml`, '--runs-dir', runsDir], { env: { NETBENCH_HOME: home } });
    expect(result.code).not.toBe(0);
    const runDir = onlyRunDir(runsDir);
    const [trial] = readResults(runDir).run.trials;
    expect(trial?.status).toBe('failed');
    expect(JSON.stringify(trial)).toMatch(/ab on client gave up: apr_pollset_poll: The timeout specified has expired/);
    expect(readdirSync(join(runDir, 'raw'))).toContain('t0001-ab.txt');
  });

  it('kill -9 mid-trial over HTTPS: `netbench cleanup <run>` stops nginx and wrk, and the next trial removes the private directory and its key', async () => {
    const home = tempHome();
    const runsDir = join(home, 'runs');
    const { child, done } = startCli(['run', `${SCENARIO}/long.yaml`, '--runs-dir', runsDir, '--progress', 'none'], { env: { NETBENCH_HOME: home } });
    const runDir = await waitFor(() => (existsSync(runsDir) ? safeRunDir(runsDir) : undefined), 60_000, 'the run folder');
    const runId = basename(runDir);
    const privateDirs = () =>
      readdirSync(tmpdir())
        .filter((d) => d.startsWith(`netbench-http-${runId}.`))
        .map((d) => join(tmpdir(), d));
    // nginx's master names its directory in its title; its workers are its children; wrk runs with this spec's flags.
    const master = await waitFor(() => processes().find((p) => p.args.includes(`netbench-http-${runId}.`) && /nginx: master/.test(p.args)), 60_000, 'nginx');
    const wrk = await waitFor(() => processes().find((p) => /^wrk -t 1 -c 3 -d 47s .* https:/.test(p.args)), 60_000, 'wrk');
    const workers = processes().filter((p) => p.ppid === master.pid);
    expect(workers.length).toBeGreaterThan(0);
    child.kill('SIGKILL');
    await done;
    const ours = [master, wrk, ...workers].map((p) => p.pid);
    expect(ours.filter(alive)).toEqual(ours); // really left behind
    const [dir] = privateDirs();
    expect(dir).toBeDefined();
    expect(existsSync(join(dir!, 'key.pem'))).toBe(true); // the run's private key, among what is left
    const cleanup = await runCli(['cleanup', runId, '--runs-dir', runsDir, '--json'], { env: { NETBENCH_HOME: home } });
    expect(cleanup.code, cleanup.stderr).toBe(0);
    await expect.poll(() => ours.filter(alive), { timeout: 10_000 }).toEqual([]);
    // What cleanup cannot reach: the directory on the host. The next http trial there removes it once it is
    // 10 minutes old and no nginx of its own runs; made older here rather than waited for.
    expect(existsSync(dir!)).toBe(true);
    execFileSync('touch', ['-d', '11 minutes ago', dir!]);
    const next = await runCli(['run', `${SCENARIO}/long.yaml`, '--runs-dir', runsDir, '--set', 'benchmarks.0.duration=1'], { env: { NETBENCH_HOME: home } });
    expect(next.code, next.stderr).toBe(0);
    expect(existsSync(dir!)).toBe(false);
  });

  // oha comes from crates.io (scripts/test.sh builds it once); without it this is skipped.
  const hasOha =
    existsSync(join(homedir(), '.cache/netbench/oha/bin/oha')) ||
    (() => {
      try {
        execFileSync('oha', ['--version'], { stdio: 'ignore' });
        return true;
      } catch {
        return false;
      }
    })();
  it.runIf(setupRequired())('has oha where set-up is required (CI)', () => {
    expect(hasOha, 'oha is missing: scripts/test.sh builds it with packages/plugins/http/scripts/install-oha.sh').toBe(true);
  });

  it.skipIf(!hasOha)('oha at constant offered rates over HTTPS: offered and achieved rate, a sweep chart by rate', async () => {
    const home = tempHome();
    const runsDir = join(home, 'runs');
    const result = await runCli(['run', `${SCENARIO}/oha.yaml`, '--runs-dir', runsDir], { env: { NETBENCH_HOME: home } });
    expect(result.code, result.stderr).toBe(0);
    const results = readResults(onlyRunDir(runsDir));
    const { samples } = results;
    expect(results.run.trials.map((t) => t.params.rate)).toEqual([100, 200, 400]);
    for (const [id, rate] of [
      ['t0001', 100],
      ['t0002', 200],
      ['t0003', 400],
    ] as const) {
      expect(one(samples, id, 'HTTP_Offered_Rate')).toBe(rate);
      expect(one(samples, id, 'HTTP_Request_Rate')).toBeGreaterThan(0);
      expect(one(samples, id, 'HTTP_Errors')).toBe(0);
      expect(one(samples, id, 'HTTP_Latency_p99_99')).toBeGreaterThan(0);
    }
    const charts = chartsFor([results]);
    expect(charts.some((c) => c.kind === 'sweep' && c.metric === 'HTTP_Latency_p99' && c.param === 'rate')).toBe(true);
  });
});

function safeRunDir(runsDir: string): string | undefined {
  try {
    return onlyRunDir(runsDir);
  } catch {
    return undefined;
  }
}

/** Every process: pid, parent pid and command line (nginx's is its title). */
function processes(): { pid: number; ppid: number; args: string }[] {
  return execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .split('\n')
    .flatMap((line) => {
      const match = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line);
      return match ? [{ pid: Number(match[1]), ppid: Number(match[2]), args: match[3]! }] : [];
    });
}

/** Running (a zombie has finished: it only waits for its parent to read its status). */
function alive(pid: number): boolean {
  try {
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
