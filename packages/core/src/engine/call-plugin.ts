import type { EventInput } from '@netbench/plugin-api';
import { PluginError, TimeoutError } from '@netbench/plugin-api';

export interface CallPluginOptions {
  /** Milliseconds the call may take; then its signal aborts and the call fails with `TimeoutError`. */
  timeoutMs?: number;
  /** Aborting this aborts the call's own signal (user interrupt, run failure). */
  signal?: AbortSignal;
  /** Receives one `plugin-call` event per call. */
  emit?: (event: EventInput) => void;
  /**
   * Milliseconds a call whose signal aborted (timeout or interrupt) gets to
   * settle before the engine stops waiting for it. Keeps a plugin that ignores
   * its signal from blocking teardown forever. Default 3000.
   */
  graceMs?: number;
}

const DEFAULT_GRACE_MS = 3000;

const toError = (reason: unknown): Error => (reason instanceof Error ? reason : new Error(reason === undefined ? 'aborted' : String(reason)));

/**
 * The one way the engine calls plugin code. It hands the hook its own abort
 * signal, applies the phase timeout, stops waiting (after a grace period) for
 * a promise that never settles, names plugin and hook in every error
 * (`PluginError` with the plugin's error as `cause`) and records the call as a
 * `plugin-call` event.
 */
export async function callPlugin<T>(plugin: { readonly name: string }, hook: string, fn: (signal: AbortSignal) => Promise<T> | T, options: CallPluginOptions = {}): Promise<T> {
  const began = performance.now();
  const controller = new AbortController();
  const graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
  let timedOut: TimeoutError | undefined;
  let timeoutTimer: NodeJS.Timeout | undefined;
  let graceTimer: NodeJS.Timeout | undefined;
  let giveUp: (reason: Error) => void = () => {};

  // Rejects once the call's signal has aborted and the grace period passed.
  const abandoned = new Promise<never>((_, reject) => {
    giveUp = reject;
  });
  const onAbort = () => {
    graceTimer = setTimeout(() => giveUp(timedOut ?? toError(controller.signal.reason)), graceMs);
  };
  controller.signal.addEventListener('abort', onAbort, { once: true });
  const onOuterAbort = () => controller.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', onOuterAbort, { once: true });
  if (options.signal?.aborted) onOuterAbort();
  if (options.timeoutMs !== undefined && options.timeoutMs >= 0) {
    timeoutTimer = setTimeout(() => {
      timedOut = new TimeoutError(`did not finish within ${formatMs(options.timeoutMs!)}`);
      controller.abort(timedOut);
    }, options.timeoutMs);
  }

  // `then` turns a synchronous throw into a rejection like any other.
  const call = Promise.resolve().then(() => fn(controller.signal));
  call.catch(() => {}); // it may settle after we stopped waiting; that is not an unhandled rejection
  let ok = false;
  try {
    const result = await Promise.race([call, abandoned]);
    // A result that arrives after the deadline is still a timeout: the caller has moved on.
    if (timedOut) throw timedOut;
    ok = true;
    return result;
  } catch (error) {
    const cause = timedOut ?? error;
    throw cause instanceof PluginError && cause.plugin === plugin.name ? cause : new PluginError(plugin.name, hook, cause);
  } finally {
    clearTimeout(timeoutTimer);
    clearTimeout(graceTimer);
    controller.signal.removeEventListener('abort', onAbort);
    options.signal?.removeEventListener('abort', onOuterAbort);
    options.emit?.({ type: 'plugin-call', plugin: plugin.name, hook, durationMs: Math.round(performance.now() - began), ok });
  }
}

function formatMs(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
