import { NetbenchError, paramLabels, type TrialContext, type TrialOutput, type TrialRun, UnsupportedError } from '@netbench/plugin-api';
import { assertHostAddress, pinnedArgv, placementLabels, readAffinity, runToolClient, trialDeadline, withToolServer } from '@netbench/plugin-api/tool-kit';
import { reportedError } from './iperf3-error.js';
import { iperf3Samples } from './iperf3-samples.js';
import { liveIntervalSample, onLines } from './live-interval.js';
import { parseIperf3Json } from './parse-result.js';
import type { PortPool } from './port-pool.js';
import { IPERF3_SERVER } from './server.js';
import { clientArgv, type Iperf3TrialSettings, serverArgv } from './trial-settings.js';

/** A one-off server exits by itself right after the test; give it this long to write its JSON. */
const SERVER_EXIT_GRACE_MS = 2_000;

/**
 * One iperf3 trial: a one-off server on a port of its own, the client against
 * it, the server always stopped afterwards. Raw JSON of both sides is saved
 * before the client's is parsed.
 */
export async function runIperf3(trial: TrialRun<Iperf3TrialSettings>, ctx: TrialContext, ports: PortPool): Promise<TrialOutput> {
  // Before the server starts: the address becomes -c's value.
  assertHostAddress(trial.target, 'iperf3 target');
  const settings = trial.params;
  assertSupported(settings, trial);
  const { signal, failure } = trialDeadline(ctx, `iperf3 trial ${trial.id}`);

  try {
    // Live values (not stored: the client's JSON is the record) from the server's text report, as it prints it.
    const live = ctx.interval;
    const pinnedServer = (port: number) => pinnedArgv(serverArgv(port, live ? settings.interval : undefined), settings.cpu_server);
    return await withToolServer(trial.server, ports, pinnedServer, IPERF3_SERVER, signal, async (server) => {
      if (live) {
        const options = { streams: settings.streams, reverse: settings.reverse };
        onLines(server.process.stdout, (line) => {
          const sample = liveIntervalSample(line, options);
          if (sample) live(sample);
        });
      }
      const measuring = settings.duration + settings.omit;
      // Where each end runs decides results on small machines: read both back while they run.
      const placement: { client?: string; server?: string } = {};
      const result = await runToolClient(trial.client, pinnedArgv(clientArgv(settings, trial.target, server.port), settings.cpu_client), ctx, {
        signal,
        seconds: measuring,
        stdoutName: 'iperf3-client.json',
        stderrName: 'iperf3-client.stderr.txt',
        onStart: async (client) => {
          placement.client = await readAffinity(trial.client, client.pid, signal);
          placement.server = await readAffinity(trial.server, server.process.pid, signal);
        },
      });
      // iperf3 -J exits 0 even when it reports an error; a server nobody reached would then wait forever.
      const clientFailed = result.code !== 0 || reportedError(result.stdout) !== undefined;
      const serverResult = await server.stop(clientFailed ? 0 : SERVER_EXIT_GRACE_MS);
      if (serverResult.stdout.trim() !== '') await ctx.saveRaw(live ? 'iperf3-server.txt' : 'iperf3-server.json', serverResult.stdout);
      if (signal.aborted) throw failure(signal.reason);
      if (result.stdout.trim() === '') {
        throw new NetbenchError(`iperf3 client on ${trial.client.name} printed nothing (exit ${result.code ?? result.signal}): ${result.stderr.trim()}`);
      }
      const parsed = parseIperf3Json(result.stdout, 'iperf3-client.json');
      ctx.progress(1, `${measuring}/${measuring} s`);
      return { samples: iperf3Samples(parsed, { ...paramLabels(trial.params), ...placementLabels(placement.client, placement.server) }) };
    });
  } catch (error) {
    throw failure(error);
  }
}

/** Fail before starting anything when `check` says a host's iperf3 lacks a requested option. */
function assertSupported(settings: Iperf3TrialSettings, trial: TrialRun<Iperf3TrialSettings>): void {
  for (const [role, info] of [
    ['client', trial.clientInfo],
    ['server', trial.serverInfo],
  ] as const) {
    const host = role === 'client' ? trial.client : trial.server;
    if (settings.bidir && info.features.bidir === false) {
      throw new UnsupportedError(`bidir needs iperf3 3.7 or later; ${role} host ${host.name} has ${info.version}`);
    }
  }
  if (settings.congestion !== undefined && trial.clientInfo.features.tcp_congestion === false) {
    throw new UnsupportedError(`congestion (-C): iperf3 on client host ${trial.client.name} is built without TCP congestion algorithm setting`);
  }
  if (settings.zerocopy && trial.clientInfo.features.zerocopy === false) {
    throw new UnsupportedError(`zerocopy (-Z): iperf3 on client host ${trial.client.name} is built without sendfile support`);
  }
}
