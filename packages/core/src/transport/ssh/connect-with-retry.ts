import type { Logger } from '@netbench/plugin-api';
import { NetbenchError } from '@netbench/plugin-api';
import type { Client } from 'ssh2';
import { ConnectAttemptError } from './open-connection.js';
import type { SshConnectRetry } from './ssh-host-options.js';

/** The connection could not be made: every attempt failed or the failure cannot pass by waiting. */
export class SshConnectError extends NetbenchError {
  override readonly name: string = 'SshConnectError';
  override readonly exitCode: number = 5;
}

/**
 * Run `attempt` until it connects, waiting `initialDelayMs`, then twice as
 * long each time (at most `maxDelayMs`), while failures look like a machine
 * still booting. Errors that waiting cannot fix (host key refused,
 * authentication) end it at once. Never waits past `signal`.
 */
export async function connectWithRetry(
  attempt: (signal: AbortSignal | undefined) => Promise<Client>,
  retry: SshConnectRetry,
  label: string,
  signal?: AbortSignal,
  log?: Logger,
): Promise<Client> {
  const attempts = Math.max(1, Math.floor(retry.attempts));
  const began = Date.now();
  let delay = Math.max(0, retry.initialDelayMs);
  let last: unknown;
  for (let n = 1; n <= attempts; n++) {
    signal?.throwIfAborted();
    try {
      return await attempt(signal);
    } catch (error) {
      signal?.throwIfAborted();
      last = error;
      if (!(error instanceof ConnectAttemptError) || !error.retryable) {
        const text = message(error);
        throw new SshConnectError(text.includes(label) ? text : `cannot connect to ${label}: ${text}`, { cause: error });
      }
      if (n === attempts) break;
      log?.debug(`${label}: attempt ${n}/${attempts} failed (${message(error)}); next in ${delay} ms`);
      await sleep(delay, signal);
      delay = Math.min(Math.max(delay * 2, 1), retry.maxDelayMs);
    }
  }
  const seconds = ((Date.now() - began) / 1000).toFixed(1);
  throw new SshConnectError(`${label} unreachable after ${attempts} attempt${attempts === 1 ? '' : 's'} over ${seconds} s: ${message(last)}`, { cause: last });
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
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
