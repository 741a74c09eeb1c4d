import { NetbenchError, RetryableError } from '../errors/index.js';
import type { ExecResult, Host, HostProcess } from '../plugin/host.js';
import { type PortProtocol, readBoundPorts } from './bound-ports.js';
import { delay } from './delay.js';
import type { PortPool } from './port-pool.js';
import { assertReachableRange, reachablePort } from './reachable-ports.js';

const START_TIMEOUT_MS = 10_000;
const POLL_MS = 50;
// A server that buffers its output may print its ready line late: poll after this long without it.
const READY_LINE_WAIT_MS = 1_000;
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
  /**
   * A line the server prints once it has bound its port (iperf 2: `Server
   * listening on TCP port N`). When given, start waits for that line (or the
   * exit) as an event instead of a first fixed poll interval; the port is
   * still confirmed bound from /proc/net before start returns (a server may
   * print just before `listen`), polling as before if it is not yet, or if
   * the line has not come within 1 s (output held in a buffer).
   */
  readonly readyLine?: RegExp;
}

export interface ToolServer {
  readonly port: number;
  readonly process: HostProcess;
  /**
   * What the server printed (stdout and stderr) while it started, when it was
   * watched for `readyLine`: that text was read from its streams. Listeners
   * attached as soon as the start resolves see everything after it.
   */
  readonly startOutput: string;
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
  const ready = options.readyLine ? watchFor(proc, options.readyLine) : undefined;
  const server: ToolServer = {
    port,
    process: proc,
    stop,
    get startOutput() {
      return ready?.text() ?? '';
    },
  };

  try {
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (let look = 0; ; look += 1) {
      // Let a failing server (port taken) exit before the port is seen bound by someone else:
      // wait for its ready line (or exit) when it prints one, else a poll interval.
      if (ready && look === 0) await Promise.race([ready.seen, exited, aborted(signal), delay(READY_LINE_WAIT_MS)]);
      else await delay(POLL_MS);
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
  } finally {
    ready?.detach();
  }
}

/** Resolves `seen` once `pattern` matches a line of the process's output; `text` is all it read. */
function watchFor(proc: HostProcess, pattern: RegExp): { seen: Promise<void>; text(): string; detach(): void } {
  let text = '';
  let detached = false;
  let found!: () => void;
  const seen = new Promise<void>((resolve) => {
    found = resolve;
  });
  const onData = (chunk: Buffer | string) => {
    text += chunk.toString();
    if (text.split('\n').some((line) => pattern.test(line))) found();
  };
  proc.stdout.on('data', onData);
  proc.stderr.on('data', onData);
  return {
    seen,
    text: () => text,
    detach() {
      if (detached) return;
      detached = true;
      proc.stdout.off('data', onData);
      proc.stderr.off('data', onData);
    },
  };
}

/** Resolves when `signal` aborts (the caller then throws its reason). */
function aborted(signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

/**
 * Pick a port nobody uses (this process's other trials, or any program on the
 * server host: looked up first, unless the server has a ready line) and start
 * the server there; on PortInUseError (another program has it, or took it
 * between the look and the bind) try the next port, 3 in all.
 * The caller releases `server.port` to `ports` after stopping it.
 */
export async function startToolServerOnFreePort(
  host: Host,
  ports: PortPool,
  argv: (port: number) => readonly string[],
  options: ToolServerOptions,
  signal: AbortSignal,
): Promise<ToolServer> {
  let lastError: unknown;
  // Only ports other hosts can reach (a Kubernetes Service lists its ports): refused at once when there are none.
  assertReachableRange(host, options.tool, options.protocol, ports.first, ports.last);
  const reachable = reachablePort(host, options.protocol);
  for (let attempt = 0; attempt < PORT_ATTEMPTS; attempt += 1) {
    // A server with a ready line shows a taken port at once (it exits saying so, no line):
    // trying the port costs less than a round trip to look first. Others look first,
    // since telling their failed bind apart takes a poll interval.
    const bound = options.readyLine ? undefined : await readBoundPorts(host, options.protocol, signal);
    const port = ports.acquire((candidate) => !reachable(candidate) || (bound?.has(candidate) ?? false));
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
  host: Host,
  ports: PortPool,
  argv: (port: number) => readonly string[],
  options: ToolServerOptions,
  signal: AbortSignal,
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
