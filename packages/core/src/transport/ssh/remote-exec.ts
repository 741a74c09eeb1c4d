import type { ExecOptions, ExecResult } from '@netbench/plugin-api';
import { TimeoutError } from '@netbench/plugin-api';
import type { RemoteProcess } from './remote-process.js';

/** After a kill, how long to wait for the host to report the exit before giving up on the channel. */
const KILL_GRACE_MS = 3000;

/**
 * `Host.exec` on top of a remote process: stdin written and closed, a
 * deadline (SIGKILL to the remote group, then stop waiting), and abort
 * (SIGTERM, then stop waiting). Never waits on a silent host forever.
 */
export async function execRemote(proc: RemoteProcess, argv: readonly string[], options: ExecOptions): Promise<ExecResult> {
  proc.stdin.on('error', () => {});
  proc.stdin.end(options.stdin ?? '');
  let timedOut = false;
  let grace: NodeJS.Timeout | undefined;
  const giveUpLater = () => {
    grace ??= setTimeout(() => proc.abandon(), KILL_GRACE_MS);
  };
  const timer =
    options.timeoutMs !== undefined
      ? setTimeout(() => {
          timedOut = true;
          proc.kill('SIGKILL');
          giveUpLater();
        }, options.timeoutMs)
      : undefined;
  const onAbort = () => giveUpLater();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) onAbort();
  try {
    const result = await proc.exited;
    if (timedOut) throw new TimeoutError(`${argv.join(' ')} timed out after ${options.timeoutMs} ms`);
    if (options.signal?.aborted) throw options.signal.reason ?? new Error('aborted');
    return result;
  } finally {
    clearTimeout(timer);
    clearTimeout(grace);
    options.signal?.removeEventListener('abort', onAbort);
  }
}
