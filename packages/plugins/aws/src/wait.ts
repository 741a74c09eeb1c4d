import { isDependencyViolation } from './aws-errors.js';

/** Sleep that an abort cuts short (rejecting with the abort reason). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export interface BackoffOptions {
  readonly signal?: AbortSignal;
  /** Give up after this long (ms). */
  readonly timeoutMs: number;
  readonly initialDelayMs?: number;
  readonly maxDelayMs?: number;
}

/** Poll `check` with growing delays until it returns a value; throws `what` on timeout. */
export async function pollUntil<T>(check: () => Promise<T | undefined>, what: string, options: BackoffOptions): Promise<T> {
  const deadline = Date.now() + options.timeoutMs;
  let delay = options.initialDelayMs ?? 1000;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() + delay > deadline) throw new Error(`timed out after ${Math.round(options.timeoutMs / 1000)} s waiting for ${what}`);
    await sleep(delay, options.signal);
    delay = Math.min(delay * 1.5, options.maxDelayMs ?? 10_000);
  }
}

/**
 * Run a delete, retrying while AWS says something still depends on the
 * resource (instances still shutting down hold ENIs, public IPs, group
 * memberships) — bounded, so teardown reports rather than hangs.
 */
export async function retryDependencies<T>(action: () => Promise<T>, options: BackoffOptions): Promise<T> {
  const deadline = Date.now() + options.timeoutMs;
  let delay = options.initialDelayMs ?? 2000;
  for (;;) {
    try {
      return await action();
    } catch (error) {
      if (!isDependencyViolation(error) || Date.now() + delay > deadline) throw error;
    }
    await sleep(delay, options.signal);
    delay = Math.min(delay * 1.5, options.maxDelayMs ?? 15_000);
  }
}
