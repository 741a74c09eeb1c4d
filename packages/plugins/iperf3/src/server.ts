import { NetbenchError, RetryableError } from '@netbench/core';
import type { ExecResult, Host, HostProcess } from '@netbench/core';
import { reportedError } from './iperf3-error.js';
import { listeningPorts } from './listening-ports.js';
import { serverArgv } from './trial-settings.js';

const START_TIMEOUT_MS = 10_000;
const POLL_MS = 50;
const STOP_GRACE_MS = 2_000;

/** The server could not bind its port: another program has it. The caller picks another port. */
export class PortInUseError extends RetryableError {
  override readonly name: string = 'PortInUseError';
}

export interface RunningServer {
  readonly port: number;
  readonly process: HostProcess;
  /** Wait up to `graceMs` for the one-off server to exit on its own, then stop it. Idempotent. */
  stop(graceMs?: number): Promise<ExecResult>;
}

/**
 * Ports listening on the host now, read from /proc/net/tcp{,6} (no connection
 * is made: a probe connection would use up a one-off `-1` server). Undefined
 * when the host has no such files (not Linux).
 */
export async function readListeningPorts(host: Host, signal: AbortSignal): Promise<Set<number> | undefined> {
  const result = await host.exec(['cat', '/proc/net/tcp', '/proc/net/tcp6'], { signal, timeoutMs: 5_000 });
  // tcp6 is missing when IPv6 is off; cat still prints tcp and exits 1.
  if (!result.stdout.includes('local_address')) return undefined;
  return listeningPorts(result.stdout);
}

/** Start `iperf3 -s -1 -p PORT -J` and return once it listens. Kills it on any failure. */
export async function startServer(host: Host, port: number, signal: AbortSignal): Promise<RunningServer> {
  const proc = host.spawn(serverArgv(port), { signal });
  proc.stdin.on('error', () => {});
  let exit: ExecResult | undefined;
  let spawnError: unknown;
  const exited = proc.exited.then(
    (result) => (exit = result),
    (error: unknown) => {
      spawnError = error;
      return { stdout: '', stderr: String(error), code: null, signal: null, durationMs: 0 } satisfies ExecResult;
    },
  );
  let stopping: Promise<ExecResult> | undefined;
  const stop = (graceMs = 0): Promise<ExecResult> => {
    stopping ??= (async () => {
      if (!exit && graceMs > 0) await Promise.race([exited, delay(graceMs)]);
      if (!exit) proc.kill('SIGTERM');
      if (!exit) await Promise.race([exited, delay(STOP_GRACE_MS)]);
      if (!exit) proc.kill('SIGKILL');
      return exited;
    })();
    return stopping;
  };
  const server: RunningServer = { port, process: proc, stop };

  try {
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      // Let a failing server (port taken) exit before the port is seen listening by someone else.
      await delay(POLL_MS);
      if (spawnError) throw spawnError;
      if (exit) throw serverStartFailure(host, port, exit);
      signal.throwIfAborted();
      const ports = await readListeningPorts(host, signal);
      if (exit) throw serverStartFailure(host, port, exit);
      // Without /proc, wait a moment and let the client's retry on "connection refused" cover the rest.
      if (ports === undefined) {
        await delay(500);
        return server;
      }
      if (ports.has(port)) return server;
      if (Date.now() > deadline) throw new RetryableError(`iperf3 server on ${host.name} did not listen on port ${port} within ${START_TIMEOUT_MS} ms`);
    }
  } catch (error) {
    await stop();
    throw error;
  }
}

function serverStartFailure(host: Host, port: number, result: ExecResult): Error {
  const reported = reportedError(result.stdout) ?? (result.stderr.trim() || `exit code ${result.code}`);
  const message = `iperf3 server on ${host.name} port ${port} exited at start: ${reported}`;
  if (/Address already in use/i.test(reported)) return new PortInUseError(message);
  return new NetbenchError(message);
}

// Unref'd: these waits always race a child process, which keeps the loop alive
// while it runs; a pending wait must not hold the CLI open after it exits.
function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
