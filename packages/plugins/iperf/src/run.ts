import { NetbenchError, RetryableError, TimeoutError, UnsupportedError } from '@netbench/core';
import type { ExecResult, HostProcess, TrialContext, TrialOutput, TrialRun } from '@netbench/core';
import { iperfSamples } from './iperf-samples.js';
import { parseIperfOutput } from './parse/parse-iperf.js';
import type { PortPool } from './port-pool.js';
import { PortInUseError, readBoundPorts, startServer, type RunningServer } from './server.js';
import { clientArgv, readTrialSettings, serverArgv, type IperfTrialSettings } from './trial-settings.js';

const PORT_ATTEMPTS = 3;
const PROGRESS_EVERY_MS = 500;
const CLIENT_KILL_GRACE_MS = 2_000;
// The server has printed its report when the client is done; this lets the last line reach its pipe.
const SERVER_DRAIN_MS = 200;
const REFUSED_RE = /connect failed: Connection refused/;

/**
 * One iperf 2 trial: a server of its own on a port of its own, the client
 * against it, the server always stopped afterwards (iperf 2 has no one-off
 * mode). Both raw outputs are saved before the client's is parsed.
 */
export async function runIperf(trial: TrialRun, ctx: TrialContext, ports: PortPool): Promise<TrialOutput> {
  const settings = readTrialSettings(trial.params);
  if (settings.reverse && trial.clientInfo.features.reverse === false) {
    throw new UnsupportedError(`reverse (-R) needs iperf 2.1 or later; client host ${trial.client.name} has ${trial.clientInfo.version}`);
  }
  const timeout = AbortSignal.timeout(ctx.timeoutMs);
  const signal = AbortSignal.any([ctx.signal, timeout]);
  const failure = (error: unknown) =>
    timeout.aborted && !ctx.signal.aborted
      ? new TimeoutError(`iperf trial ${trial.id} took longer than ${ctx.timeoutMs} ms`)
      : ctx.signal.aborted ? (ctx.signal.reason ?? error) : error;

  let server: RunningServer | undefined;
  let progress: NodeJS.Timeout | undefined;
  try {
    server = await startServerOnFreePort(trial, settings, ports, signal);
    const clientStarted = Date.now();
    progress = setInterval(() => {
      const elapsed = (Date.now() - clientStarted) / 1000;
      ctx.progress(Math.min(0.99, elapsed / settings.duration), `${Math.min(Math.floor(elapsed), settings.duration)}/${settings.duration} s`);
    }, PROGRESS_EVERY_MS);
    const result = await exitedOrKilled(trial.client.spawn(clientArgv(settings, trial.target, server.port), { signal }), signal);
    clearInterval(progress);
    await ctx.saveRaw('iperf-client.txt', result.stdout);
    if (result.stderr.trim() !== '') await ctx.saveRaw('iperf-client.stderr.txt', result.stderr);
    await delay(SERVER_DRAIN_MS);
    const serverResult = await server.stop();
    const serverText = `${serverResult.stdout}${serverResult.stderr}`;
    if (serverText.trim() !== '') await ctx.saveRaw('iperf-server.txt', serverText);
    if (signal.aborted) throw failure(signal.reason);
    // iperf 2 prints failures on stderr and may still exit 0: read both.
    const text = `${result.stdout}\n${result.stderr}`;
    if (REFUSED_RE.test(text)) throw new RetryableError(`iperf client on ${trial.client.name} could not connect to ${trial.target}:${server.port}: ${lastLines(result.stderr)}`);
    if (result.stdout.trim() === '') throw new NetbenchError(`iperf client on ${trial.client.name} printed nothing (exit ${result.code ?? result.signal}): ${lastLines(result.stderr)}`);
    const parsed = parseIperfOutput(text, 'iperf-client.txt');
    for (const warning of parsed.warnings) ctx.log.warn(`iperf on ${trial.client.name}: ${warning}`);
    ctx.progress(1, `${settings.duration}/${settings.duration} s`);
    return { samples: iperfSamples(parsed, trial.params) };
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

/** Pick a port nobody uses (this process's other trials, or any program on the server host) and start there. */
async function startServerOnFreePort(trial: TrialRun, settings: IperfTrialSettings, ports: PortPool, signal: AbortSignal): Promise<RunningServer> {
  let lastError: unknown;
  for (let attempt = 0; attempt < PORT_ATTEMPTS; attempt += 1) {
    const bound = await readBoundPorts(trial.server, settings.protocol, signal);
    const port = ports.acquire((candidate) => bound?.has(candidate) ?? false);
    try {
      return await startServer(trial.server, serverArgv(settings, port), port, settings.protocol, signal);
    } catch (error) {
      ports.release(port);
      // Another program took the port between our look and the bind: try the next one.
      if (!(error instanceof PortInUseError)) throw error;
      lastError = error;
    }
  }
  throw new RetryableError(`could not start an iperf server on ${trial.server.name} after ${PORT_ATTEMPTS} ports: ${String(lastError)}`);
}

/** The client's result; on abort the transport sent SIGTERM, and it gets SIGKILL if it lingers. */
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

function lastLines(text: string): string {
  return text.trim().split('\n').slice(-3).join(' | ') || '(no message)';
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
