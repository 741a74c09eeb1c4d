import { TimeoutError } from '../errors/index.js';
import type { ExecResult, Host, HostProcess } from '../plugin/host.js';
import type { TrialContext } from '../plugin/tool.js';

const PROGRESS_EVERY_MS = 500;
const CLIENT_KILL_GRACE_MS = 2_000;

export interface TrialDeadline {
  /** Aborts when the run aborts or the trial's `timeoutMs` has passed. */
  readonly signal: AbortSignal;
  /** The error to throw for `error`: a TimeoutError when the trial's time ran out, the run's abort reason when it was aborted. */
  failure(error: unknown): unknown;
}

/** The trial's signal with its time limit; `what` names it in the timeout message (`iperf3 trial t1`). */
export function trialDeadline(ctx: TrialContext, what: string): TrialDeadline {
  const timeout = AbortSignal.timeout(ctx.timeoutMs);
  return {
    signal: AbortSignal.any([ctx.signal, timeout]),
    failure: (error) =>
      timeout.aborted && !ctx.signal.aborted ? new TimeoutError(`${what} took longer than ${ctx.timeoutMs} ms`) : ctx.signal.aborted ? (ctx.signal.reason ?? error) : error,
  };
}

export interface ToolClientOptions {
  /** Usually `trialDeadline(...).signal`; on abort the client gets SIGTERM, then SIGKILL after 2 s. */
  readonly signal: AbortSignal;
  /** Raw-output file names for `ctx.saveRaw`: stdout is always saved, stderr when not empty. */
  readonly stdoutName: string;
  readonly stderrName: string;
  /** Seconds the client measures: progress is reported as elapsed / this every 0.5 s while it runs (capped at 0.99). */
  readonly seconds?: number;
  /** Called with the client process once spawned (e.g. to read back its CPU affinity); awaited before returning. */
  readonly onStart?: (process: HostProcess) => Promise<void>;
}

/** Run a tool's client to its end (stdin closed), reporting progress, and save its raw output before anyone parses it. */
export async function runToolClient(host: Host, argv: readonly string[], ctx: TrialContext, options: ToolClientOptions): Promise<ExecResult> {
  const { seconds } = options;
  const started = Date.now();
  const progress =
    seconds === undefined
      ? undefined
      : setInterval(() => {
          const elapsed = (Date.now() - started) / 1000;
          ctx.progress(Math.min(0.99, elapsed / seconds), `${Math.min(Math.floor(elapsed), seconds)}/${seconds} s`);
        }, PROGRESS_EVERY_MS);
  let result: ExecResult;
  try {
    const process = host.spawn(argv, { signal: options.signal });
    const onStarted = options.onStart?.(process).catch(() => undefined);
    result = await exitedOrKilled(process, options.signal);
    await onStarted;
  } finally {
    clearInterval(progress);
  }
  await ctx.saveRaw(options.stdoutName, result.stdout);
  if (result.stderr.trim() !== '') await ctx.saveRaw(options.stderrName, result.stderr);
  return result;
}

/** The process's result; on abort the transport sent SIGTERM, and it gets SIGKILL if it lingers. */
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
