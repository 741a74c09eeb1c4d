import { NetbenchError, RetryableError, TimeoutError, UnsupportedError } from '@netbench/core';
import type { ExecResult, HostProcess, TrialContext, TrialOutput, TrialRun } from '@netbench/core';
import { reportedError } from './iperf3-error.js';
import { iperf3Samples } from './iperf3-samples.js';
import { parseIperf3Json } from './parse-result.js';
import type { PortPool } from './port-pool.js';
import { PortInUseError, readListeningPorts, startServer, type RunningServer } from './server.js';
import { clientArgv, readTrialSettings, type Iperf3TrialSettings } from './trial-settings.js';

const PORT_ATTEMPTS = 3;
const PROGRESS_EVERY_MS = 500;
/** A one-off server exits by itself right after the test; give it this long to write its JSON. */
const SERVER_EXIT_GRACE_MS = 2_000;
const CLIENT_KILL_GRACE_MS = 2_000;

/**
 * One iperf3 trial: a one-off server on a port of its own, the client against
 * it, the server always stopped afterwards. Raw JSON of both sides is saved
 * before the client's is parsed.
 */
export async function runIperf3(trial: TrialRun, ctx: TrialContext, ports: PortPool): Promise<TrialOutput> {
  const settings = readTrialSettings(trial.params);
  assertSupported(settings, trial);
  const began = Date.now();
  const timeout = AbortSignal.timeout(ctx.timeoutMs);
  const signal = AbortSignal.any([ctx.signal, timeout]);
  const failure = (error: unknown) =>
    timeout.aborted && !ctx.signal.aborted
      ? new TimeoutError(`iperf3 trial ${trial.id} took longer than ${ctx.timeoutMs} ms`)
      : ctx.signal.aborted ? (ctx.signal.reason ?? error) : error;

  let server: RunningServer | undefined;
  let progress: NodeJS.Timeout | undefined;
  try {
    server = await startServerOnFreePort(trial, ports, signal);
    const measuring = settings.duration + settings.omit;
    const clientStarted = Date.now();
    progress = setInterval(() => {
      const elapsed = (Date.now() - clientStarted) / 1000;
      ctx.progress(Math.min(0.99, elapsed / measuring), `${Math.min(Math.floor(elapsed), measuring)}/${measuring} s`);
    }, PROGRESS_EVERY_MS);

    const client = trial.client.spawn(clientArgv(settings, trial.target, server.port), { signal });
    const result = await exitedOrKilled(client, signal);
    clearInterval(progress);
    await ctx.saveRaw('iperf3-client.json', result.stdout);
    if (result.stderr.trim() !== '') await ctx.saveRaw('iperf3-client.stderr.txt', result.stderr);
    // iperf3 -J exits 0 even when it reports an error; a server nobody reached would then wait forever.
    const clientFailed = result.code !== 0 || reportedError(result.stdout) !== undefined;
    const serverResult = await server.stop(clientFailed ? 0 : SERVER_EXIT_GRACE_MS);
    if (serverResult.stdout.trim() !== '') await ctx.saveRaw('iperf3-server.json', serverResult.stdout);
    if (signal.aborted) throw failure(signal.reason);
    if (result.stdout.trim() === '') {
      throw new NetbenchError(`iperf3 client on ${trial.client.name} printed nothing (exit ${result.code ?? result.signal}): ${result.stderr.trim()}`);
    }
    const parsed = parseIperf3Json(result.stdout, 'iperf3-client.json');
    ctx.progress(1, `${measuring}/${measuring} s`);
    return { samples: iperf3Samples(parsed, trial.params) };
  } catch (error) {
    throw failure(error);
  } finally {
    clearInterval(progress);
    if (server) {
      await server.stop();
      ports.release(server.port);
    }
  }
}

/** Fail before starting anything when `check` says a host's iperf3 lacks a requested option. */
function assertSupported(settings: Iperf3TrialSettings, trial: TrialRun): void {
  for (const [role, info] of [['client', trial.clientInfo], ['server', trial.serverInfo]] as const) {
    const host = role === 'client' ? trial.client : trial.server;
    if (settings.bidir && info.features.bidir === false) {
      throw new UnsupportedError(`bidir needs iperf3 3.7 or later; ${role} host ${host.name} has ${info.version}`);
    }
  }
  if (settings.zerocopy && trial.clientInfo.features.zerocopy === false) {
    throw new UnsupportedError(`zerocopy (-Z): iperf3 on client host ${trial.client.name} is built without sendfile support`);
  }
}

/** Pick a port nobody uses (this process's other trials, or any program listening on the server host) and start there. */
async function startServerOnFreePort(trial: TrialRun, ports: PortPool, signal: AbortSignal): Promise<RunningServer> {
  let lastError: unknown;
  for (let attempt = 0; attempt < PORT_ATTEMPTS; attempt += 1) {
    const listening = await readListeningPorts(trial.server, signal);
    const port = ports.acquire((candidate) => listening?.has(candidate) ?? false);
    try {
      return await startServer(trial.server, port, signal);
    } catch (error) {
      ports.release(port);
      // Another program took the port between our look and the bind: try the next one.
      if (!(error instanceof PortInUseError)) throw error;
      lastError = error;
    }
  }
  throw new RetryableError(`could not start an iperf3 server on ${trial.server.name} after ${PORT_ATTEMPTS} ports: ${String(lastError)}`);
}

/** The client's result; on abort it was sent SIGTERM by the transport, and gets SIGKILL if it lingers. */
async function exitedOrKilled(proc: HostProcess, signal: AbortSignal): Promise<ExecResult> {
  proc.stdin.on('error', () => {});
  proc.stdin.end();
  const onAbort = () => setTimeout(() => proc.kill('SIGKILL'), CLIENT_KILL_GRACE_MS).unref();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    return await proc.exited;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
