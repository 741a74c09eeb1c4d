import type { SshConnectRetry } from '@netbench/plugin-api';

/**
 * Connection retries spread over `seconds` while a machine boots: 2 s first,
 * doubling (as core's SSH transport does) up to 15 s between attempts.
 */
export function retryWithin(seconds: number): SshConnectRetry {
  const budgetMs = seconds * 1000;
  const initialDelayMs = Math.min(2000, Math.max(100, budgetMs / 8));
  const maxDelayMs = Math.max(initialDelayMs, Math.min(15_000, budgetMs / 4));
  let attempts = 1;
  let waited = 0;
  let delay = initialDelayMs;
  while (waited + delay <= budgetMs) {
    waited += delay;
    attempts += 1;
    delay = Math.min(delay * 2, maxDelayMs);
  }
  return { attempts, initialDelayMs, maxDelayMs };
}
