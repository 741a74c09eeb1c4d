import { NetbenchError, RetryableError } from '@netbench/core';
import type { ExecResult, Host, HostProcess } from '@netbench/core';
import { boundPorts } from './bound-ports.js';

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
  /**
   * Stop it: SIGINT first (iperf 2 then prints and flushes what it has),
   * SIGTERM and SIGKILL if it lingers. Resolves with its output. Idempotent.
   */
  stop(): Promise<ExecResult>;
}

/** Ports bound on the host now, from /proc/net (no probe connection: it would count as a test). Undefined off Linux. */
export async function readBoundPorts(host: Host, protocol: 'tcp' | 'udp', signal: AbortSignal): Promise<Set<number> | undefined> {
  const files = protocol === 'tcp' ? ['/proc/net/tcp', '/proc/net/tcp6'] : ['/proc/net/udp', '/proc/net/udp6'];
  const result = await host.exec(['cat', ...files], { signal, timeoutMs: 5_000 });
  // The *6 file is missing when IPv6 is off; cat still prints the other and exits 1.
  if (!result.stdout.includes('local_address')) return undefined;
  return boundPorts(result.stdout, protocol);
}

/** Start `argv` (an iperf server on `port`) and return once its port is bound. Kills it on any failure. */
export async function startServer(host: Host, argv: readonly string[], port: number, protocol: 'tcp' | 'udp', signal: AbortSignal): Promise<RunningServer> {
  const proc = host.spawn(argv, { signal });
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
  const stop = (): Promise<ExecResult> => {
    stopping ??= (async () => {
      for (const sig of ['SIGINT', 'SIGTERM', 'SIGKILL'] as const) {
        if (exit) break;
        proc.kill(sig);
        await Promise.race([exited, delay(STOP_GRACE_MS)]);
      }
      return exited;
    })();
    return stopping;
  };
  const server: RunningServer = { port, process: proc, stop };

  try {
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      await delay(POLL_MS);
      if (spawnError) throw spawnError;
      if (exit) throw startFailure(host, port, exit);
      signal.throwIfAborted();
      const ports = await readBoundPorts(host, protocol, signal);
      // iperf 2 exits 0 even when it cannot bind: only its message tells.
      if (exit) throw startFailure(host, port, exit);
      if (ports === undefined) {
        await delay(500);
        return server;
      }
      if (ports.has(port)) return server;
      if (Date.now() > deadline) throw new RetryableError(`iperf server on ${host.name} did not listen on port ${port} within ${START_TIMEOUT_MS} ms`);
    }
  } catch (error) {
    await stop();
    throw error;
  }
}

function startFailure(host: Host, port: number, result: ExecResult): Error {
  const said = `${result.stderr}\n${result.stdout}`.trim().split('\n').filter((l) => !/^-+$/.test(l.trim())).slice(-3).join(' | ') || `exit code ${result.code}`;
  const message = `iperf server on ${host.name} port ${port} exited at start: ${said}`;
  if (/Address already in use/i.test(said)) return new PortInUseError(message);
  return new NetbenchError(message);
}

// Unref'd: these waits always race a child process; a pending wait must not hold the CLI open.
function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
