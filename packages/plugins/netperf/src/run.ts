import type { TrialContext, TrialOutput, TrialRun } from '@netbench/plugin-api';
import { NetbenchError, ParseError, RetryableError } from '@netbench/plugin-api';
import { assertHostAddress, childPids, gatedArgv, openGate, placementLabels, readAffinity, shutGate } from '@netbench/plugin-api/tool-kit';
import { netperfArgv } from './argv.js';
import { requireFeatures } from './features.js';
import { interimSample, LiveInterims, onLines } from './interim.js';
import { type Lease, NetserverPool } from './netserver-pool.js';
import { findNetperfFailure } from './parse/netperf-errors.js';
import { parseNetperfOutput } from './parse/parse-netperf.js';
import type { NetperfResult } from './result.js';
import { trialSamples } from './samples/aggregate.js';
import { familyArgs, findPool } from './serve.js';
import { isNetperfTest, type NetperfTest } from './tests.js';
import { estimatedSeconds, type TrialParams } from './trials.js';

const PROGRESS_INTERVAL_MS = 1_000;
/** netperf connects and netserver forks its test process within this; every test runs at least 1 s. */
const PLACEMENT_DELAY_MS = 300;
/** Seconds between interim results of a flow when the block sets no `demo`. */
const FLOW_DEMO_SECONDS = 1;

/**
 * One trial: `streams` netperf processes at once from the client, each to its
 * own netserver (control and data port) on the server. Every output is saved
 * before it is parsed; a failed stream fails the trial.
 */
export async function runNetperf(trial: TrialRun<TrialParams>, ctx: TrialContext): Promise<TrialOutput> {
  // Before any netserver starts: the address becomes -H's value.
  assertHostAddress(trial.target, 'netperf target');
  const test = trial.test.toUpperCase();
  if (!isNetperfTest(test)) throw new NetbenchError(`netperf: unknown test ${trial.test}`);
  const params = trial.params;
  requireFeatures(params, trial.clientInfo, trial.client.name);

  const shared = findPool(trial.serverHandle, ctx.runId, trial.server);
  // Without `serve` (a caller that skipped prepare), the trial brings its own netservers.
  const pool = shared ?? new NetserverPool(trial.server, { family: familyArgs(trial.server), log: ctx.log });
  let lease: Lease | undefined;
  try {
    lease = await pool.acquire(params.streams, ctx.signal);
    const placement: Placement = {};
    const results = await runStreams(trial, test, params, lease, ctx, placement);
    for (const warning of new Set(results.flatMap((result) => result.warnings))) ctx.log.warn(`netperf ${test}: ${warning}`);
    const labels = {
      // PKB's metadata names, so PKB queries keep filtering the same way.
      netperf_test_length: params.duration,
      max_iter: params.confidenceMax ?? 1,
      sending_thread_count: params.streams,
      ...placementLabels(placement.client, placement.server),
    };
    return { samples: trialSamples(results, labels) };
  } finally {
    lease?.release();
    if (!shared) await pool.stop();
  }
}

/** Where stream 0's ends ran (`Cpus_allowed_list`), read while they run. */
interface Placement {
  client?: string;
  server?: string;
}

/** Read both ends' affinity shortly after the processes started (netserver forks its test process on connect). */
async function readPlacement(trial: TrialRun<TrialParams>, clientPid: number | undefined, serverPid: number | undefined, ctx: TrialContext, placement: Placement): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, PLACEMENT_DELAY_MS));
  if (ctx.signal.aborted) return;
  placement.client = await readAffinity(trial.client, clientPid, ctx.signal);
  const [child] = await childPids(trial.server, serverPid, ctx.signal);
  placement.server = await readAffinity(trial.server, child, ctx.signal);
}

async function runStreams(trial: TrialRun<TrialParams>, test: NetperfTest, params: TrialParams, lease: Lease, ctx: TrialContext, placement: Placement): Promise<NetperfResult[]> {
  const { ports } = lease;
  const seconds = estimatedSeconds(params);
  const { flow } = ctx;
  // An ordinary trial shows interim results live (not stored: netperf's final result is the record).
  const live = flow ? undefined : ctx.interval;
  // A flow reports interim results (demo mode) so the trial has a time series on the shared clock; live display wants them too.
  const argvParams = (flow || live) && params.demo === undefined ? { ...params, demo: FLOW_DEMO_SECONDS } : params;
  const spawned = Date.now();
  const argvs = ports.map((pair) => netperfArgv(test, argvParams, trial.target, pair));
  // A flow's processes start before the barrier, held at a gate, so release only writes a line to each.
  const processes = argvs.map((argv, stream) => {
    const process = trial.client.spawn(flow ? gatedArgv(argv) : argv, { signal: ctx.signal });
    process.stdin.on('error', () => {});
    if (!flow) {
      process.stdin.end();
      if (live) {
        const lines = new LiveInterims(test, params.streams > 1 ? stream : undefined, spawned);
        onLines(process.stdout, (line) => {
          const sample = lines.sample(line, Date.now());
          if (sample) live(sample);
        });
      }
    } else {
      onLines(process.stdout, (line) => {
        const sample = interimSample(line, test, stream, Date.now());
        if (sample) flow.interval(sample);
      });
    }
    return process;
  });
  if (flow) {
    try {
      await flow.release();
    } catch (error) {
      for (const process of processes) shutGate(process);
      await Promise.allSettled(processes.map((process) => process.exited));
      throw error;
    }
    for (const process of processes) openGate(process);
    flow.started();
  }
  const started = Date.now();
  const placed = readPlacement(trial, processes[0]?.pid, lease.pids[0], ctx, placement).catch(() => undefined);
  ctx.progress(0, `${test} × ${params.streams}`);
  const timer = setInterval(() => {
    const elapsed = (Date.now() - started) / 1000;
    ctx.progress(Math.min(0.99, elapsed / seconds), `${test} × ${params.streams}: ${Math.floor(elapsed)} of ${seconds} s`);
  }, PROGRESS_INTERVAL_MS);
  let outcomes: PromiseSettledResult<Awaited<(typeof processes)[number]['exited']>>[];
  try {
    outcomes = await Promise.allSettled(processes.map((process) => process.exited));
  } finally {
    clearInterval(timer);
    await placed;
  }

  // Keep every output before judging any of them.
  const files = await Promise.all(
    outcomes.map(async (outcome, stream) => {
      const base = `netperf-${trial.id}-${test.toLowerCase()}-s${stream}`;
      if (outcome.status === 'rejected') return { stdout: '', stderr: String(outcome.reason), path: undefined };
      const { stdout, stderr } = outcome.value;
      const path = await ctx.saveRaw(`${base}.txt`, stdout);
      if (stderr.trim() !== '') await ctx.saveRaw(`${base}.stderr.txt`, stderr);
      return { stdout, stderr, path };
    }),
  );
  ctx.signal.throwIfAborted();

  const results = outcomes.map((outcome, stream) => {
    const file = files[stream] as (typeof files)[number];
    const where = `stream ${stream} (${trial.client.name} → ${trial.target} control port ${ports[stream]?.control}, data port ${ports[stream]?.data})`;
    if (outcome.status === 'rejected') throw new NetbenchError(`netperf ${where} could not start: ${file.stderr}`);
    const { code, signal } = outcome.value;
    if (code !== 0) throw failureError(`${file.stdout}\n${file.stderr}`, `${where} ${signal ? `was killed by ${signal}` : `exited with code ${code}`}`, file.path);
    try {
      return parseNetperfOutput(file.stdout, { test, source: file.path });
    } catch (error) {
      if (error instanceof ParseError && findNetperfFailure(file.stderr)) throw failureError(file.stderr, where, file.path);
      throw error;
    }
  });
  ctx.progress(1, `${test} × ${params.streams}: done`);
  return results;
}

/** A netperf failure as the error the engine acts on: retryable when trying again may help. */
function failureError(output: string, where: string, path: string | undefined): Error {
  const failure = findNetperfFailure(output);
  const said = failure ? `${failure.text} (${failure.explanation})` : output.trim().split('\n').slice(-3).join(' | ') || 'no output';
  const message = `netperf ${where}: ${said}${path ? ` [raw output: ${path}]` : ''}`;
  return failure?.retryable ? new RetryableError(message) : new NetbenchError(message);
}
