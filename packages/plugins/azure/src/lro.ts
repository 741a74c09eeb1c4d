import { TimeoutError } from '@netbench/plugin-api';

/** What the SDKs' long-running methods return: a poller that is also a promise of the result. */
export interface Poller<T> extends PromiseLike<T> {
  pollUntilDone(options?: { abortSignal?: AbortSignal }): Promise<T>;
}

export interface LroOptions {
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
  /** Poll interval (the SDK honours the service's Retry-After otherwise). */
  readonly pollMs: number;
}

/** Per-call options every LRO method accepts: poll interval and an abort signal bounded by the deadline. */
export function lroOptions(options: LroOptions): { updateIntervalInMs: number; abortSignal: AbortSignal } {
  return { updateIntervalInMs: options.pollMs, abortSignal: AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]) };
}

/**
 * Wait for a long-running operation (the SDK polls `Azure-AsyncOperation` or
 * `Location`), turning the deadline into a `TimeoutError` naming `what`.
 */
export async function untilDone<T>(what: string, start: (o: ReturnType<typeof lroOptions>) => Poller<T>, options: LroOptions): Promise<T> {
  const call = lroOptions(options);
  try {
    return await start(call).pollUntilDone({ abortSignal: call.abortSignal });
  } catch (error) {
    if (call.abortSignal.aborted && !options.signal.aborted) throw new TimeoutError(`${what} not done after ${Math.round(options.timeoutMs / 1000)} s`, { cause: error });
    throw error;
  }
}
