import { NetbenchError, paramLabels, RetryableError, type TrialContext, type TrialOutput, type TrialRun, UnsupportedError } from '@netbench/plugin-api';
import { assertHostAddress, firstOutput, pinnedArgv, placementLabels, readAffinity, runToolClient, trialDeadline } from '@netbench/plugin-api/tool-kit';
import { iperfSamples } from './iperf-samples.js';
import { parseIperfOutput } from './parse/parse-iperf.js';
import type { PortPool } from './port-pool.js';
import { findServerPool } from './serve.js';
import { iperfServerOptions } from './server.js';
import { IperfServerPool } from './server-pool.js';
import { clientArgv, type IperfTrialSettings, serverArgv } from './trial-settings.js';

// The server prints its report for a connection once the client is done; wait
// for that line (or the server's exit) this long at most, for its raw file.
const SERVER_REPORT_MS = 200;
const REFUSED_RE = /connect failed: Connection refused/;

/**
 * One iperf 2 trial: the client against a server of the server host's pool
 * (started in prepare, or on first use with these server arguments, and
 * reused by later trials; iperf 2 has no one-off mode), or against a server of
 * its own when the tool was not served (then stopped afterwards). A server
 * whose trial failed is stopped, not reused. The server's output for this
 * connection and the client's are saved before the client's is parsed.
 */
export async function runIperf(trial: TrialRun<IperfTrialSettings>, ctx: TrialContext, ports: PortPool): Promise<TrialOutput> {
  // Before the server starts: the address becomes -c's value.
  assertHostAddress(trial.target, 'iperf target');
  const settings = trial.params;
  if (settings.reverse && trial.clientInfo.features.reverse === false) {
    throw new UnsupportedError(`reverse (-R) needs iperf 2.1 or later; client host ${trial.client.name} has ${trial.clientInfo.version}`);
  }
  const { signal, failure } = trialDeadline(ctx, `iperf trial ${trial.id}`);
  const served = findServerPool(trial.serverHandle, ctx.runId, trial.server);
  const pool = served ?? new IperfServerPool(trial.server, ports);

  try {
    // A server serves one TCP client after another, but not every trial may share it (iperf 2.1.8):
    // - UDP: the server can exit when the next client's datagrams come at once;
    // - reverse (-R, the server sends): after a few such clients the server aborts
    //   ("corrupted double-linked list"), so the next trial would find none.
    // Those trials get a server of their own, stopped after them.
    const shared = settings.protocol === 'tcp' && !settings.reverse;
    const lease = await pool.lease((port) => pinnedArgv(serverArgv(settings, port), settings.cpu_server), iperfServerOptions(settings.protocol), signal, shared);
    let reuse = false;
    try {
      // Where each end runs decides results on small machines: read both back while they run.
      const placement: { client?: string; server?: string } = {};
      const server = lease.server;
      const result = await runToolClient(trial.client, pinnedArgv(clientArgv(settings, trial.target, lease.server.port), settings.cpu_client), ctx, {
        signal,
        seconds: settings.duration,
        stdoutName: 'iperf-client.txt',
        stderrName: 'iperf-client.stderr.txt',
        onStart: async (client) => {
          // Past taskset: iperf's header, or 0.3 s when its output is buffered (a pipe).
          await firstOutput(client.stdout, 300);
          placement.client = await readAffinity(trial.client, client.pid, signal);
          placement.server = await readAffinity(trial.server, server.process.pid, signal);
        },
      });
      await lease.waitFor(settings.streams > 1 ? /\[SUM\].*bits\/sec/ : /bits\/sec/, SERVER_REPORT_MS);
      const serverText = lease.output();
      if (serverText.trim() !== '') await ctx.saveRaw('iperf-server.txt', serverText);
      if (signal.aborted) throw failure(signal.reason);
      // iperf 2 prints failures on stderr and may still exit 0: read both.
      const text = `${result.stdout}\n${result.stderr}`;
      if (REFUSED_RE.test(text))
        throw new RetryableError(`iperf client on ${trial.client.name} could not connect to ${trial.target}:${lease.server.port}: ${lastLines(result.stderr)}`);
      if (result.stdout.trim() === '')
        throw new NetbenchError(`iperf client on ${trial.client.name} printed nothing (exit ${result.code ?? result.signal}): ${lastLines(result.stderr)}`);
      const parsed = parseIperfOutput(text, 'iperf-client.txt');
      for (const warning of parsed.warnings) ctx.log.warn(`iperf on ${trial.client.name}: ${warning}`);
      ctx.progress(1, `${settings.duration}/${settings.duration} s`);
      reuse = served !== undefined; // the pool stops a server that is not shared
      return { samples: iperfSamples(parsed, { ...paramLabels(trial.params), ...placementLabels(placement.client, placement.server) }) };
    } finally {
      await lease.release(reuse);
    }
  } catch (error) {
    throw failure(error);
  } finally {
    if (!served) await pool.stop();
  }
}

function lastLines(text: string): string {
  return text.trim().split('\n').slice(-3).join(' | ') || '(no message)';
}
