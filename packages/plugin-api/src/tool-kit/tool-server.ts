import { NetbenchError, RetryableError } from '../errors/index.js';
import type { ExecResult, Host, HostProcess } from '../plugin/host.js';
import { readBoundPorts, type PortProtocol } from './bound-ports.js';
import type { PortPool } from './port-pool.js';
import { delay } from './delay.js';

const START_TIMEOUT_MS = 10_000;
const POLL_MS = 50;
const STOP_GRACE_MS = 2_000;
const PORT_ATTEMPTS = 3;

/** The server could not bind its port: another program has it. The caller picks another port. */
export class PortInUseError extends RetryableError {
  override readonly name: string = 'PortInUseError';
}

export interface ToolServerOptions {
  /** The tool's name, for messages (`iperf3 server on h1 ...`). */
  readonly tool: string;
  /** What the server listens on: TCP waits for LISTEN, UDP for a bound socket. */
  readonly protocol: PortProtocol;
  /** Signals `stop` sends in turn, each given 2 s to work. Default SIGTERM, then SIGKILL. */
  readonly stopSignals?: readonly NodeJS.Signals[];
  /** What a server that exited during start said, for the error; "Address already in use" in it means PortInUseError. */
  readonly exitMessage?: (result: ExecResult) => string;
}

export interface ToolServer {
  readonly port: number;
  readonly process: HostProcess;
  /**
   * Wait up to `graceMs` (default 0) for the server to exit on its own, then
   * send the stop signals in turn until it does. Resolves with its output. Idempotent.
   */
  stop(graceMs?: number): Promise<ExecResult>;
}

/**
 * Start `argv` (a server on `port`) and return once /proc/net shows the port
 * bound. Kills it on any failure: exit at start (PortInUseError when the port
 * is taken), abort, or not listening within 10 s (retryable).
 */
export async function startToolServer(host: Host, argv: readonly string[], port: number, options: ToolServerOptions, signal: AbortSignal): Promise<ToolServer> {
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
  const stopSignals = options.stopSignals ?? ['SIGTERM', 'SIGKILL'];
  let stopping: Promise<ExecResult> | undefined;
  const stop = (graceMs = 0): Promise<ExecResult> => {
    stopping ??= (async () => {
      if (!exit && graceMs > 0) await Promise.race([exited, delay(graceMs)]);
      for (const sig of stopSignals) {
        if (exit) break;
        proc.kill(sig);
        await Promise.race([exited, delay(STOP_GRACE_MS)]);
      }
      return exited;
    })();
    return stopping;
  };
  const server: ToolServer = { port, process: proc, stop };

  try {
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      // Let a failing server (port taken) exit before the port is seen bound by someone else.
      await delay(POLL_MS);
      if (spawnError) throw spawnError;
      if (exit) throw startFailure(host, port, exit, options);
      signal.throwIfAborted();
      const ports = await readBoundPorts(host, options.protocol, signal);
      // Some servers (iperf 2) exit 0 when they cannot bind: only the exit itself tells.
      if (exit) throw startFailure(host, port, exit, options);
      // Without /proc, wait a moment and let the client's retry on "connection refused" cover the rest.
      if (ports === undefined) {
        await delay(500);
        return server;
      }
      if (ports.has(port)) return server;
      if (Date.now() > deadline) throw new RetryableError(`${options.tool} server on ${host.name} did not listen on port ${port} within ${START_TIMEOUT_MS} ms`);
    }
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Pick a port nobody uses (this process's other trials, or any program on the
 * server host) and start the server there; on PortInUseError (another program
 * took it between the look and the bind) try the next port, 3 in all.
 * The caller releases `server.port` to `ports` after stopping it.
 */
export async function startToolServerOnFreePort(
  host: Host, ports: PortPool, argv: (port: number) => readonly string[], options: ToolServerOptions, signal: AbortSignal,
): Promise<ToolServer> {
  let lastError: unknown;
  for (let attempt = 0; attempt < PORT_ATTEMPTS; attempt += 1) {
    const bound = await readBoundPorts(host, options.protocol, signal);
    const port = ports.acquire((candidate) => bound?.has(candidate) ?? false);
    try {
      return await startToolServer(host, argv(port), port, options, signal);
    } catch (error) {
      ports.release(port);
      if (!(error instanceof PortInUseError)) throw error;
      lastError = error;
    }
  }
  const article = /^[aeiou]/i.test(options.tool) ? 'an' : 'a';
  throw new RetryableError(`could not start ${article} ${options.tool} server on ${host.name} after ${PORT_ATTEMPTS} ports: ${String(lastError)}`);
}

/**
 * A server on a free port from `ports` for the length of `use`: always stopped
 * afterwards (`stop()`, after whatever `use` did) and its port given back,
 * whether `use` returned or threw.
 */
export async function withToolServer<T>(
  host: Host, ports: PortPool, argv: (port: number) => readonly string[], options: ToolServerOptions, signal: AbortSignal,
  use: (server: ToolServer) => Promise<T>,
): Promise<T> {
  const server = await startToolServerOnFreePort(host, ports, argv, options, signal);
  try {
    return await use(server);
  } finally {
    await server.stop();
    ports.release(server.port);
  }
}

function startFailure(host: Host, port: number, result: ExecResult, options: ToolServerOptions): Error {
  const said = options.exitMessage?.(result) ?? lastLines(`${result.stderr}\n${result.stdout}`, `exit code ${result.code}`);
  const message = `${options.tool} server on ${host.name} port ${port} exited at start: ${said}`;
  if (/Address already in use/i.test(said)) return new PortInUseError(message);
  return new NetbenchError(message);
}

function lastLines(text: string, otherwise: string): string {
  return text.trim().split('\n').slice(-3).join(' | ') || otherwise;
}
