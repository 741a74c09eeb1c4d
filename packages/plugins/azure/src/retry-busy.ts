import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Codes Azure answers while a resource the request refers to is still being
 * updated by another operation — e.g. creating the two peerings of a VNet
 * pair in parallel: each peering updates its own VNet, and the other side's
 * create may see that VNet not yet provisioned. Terraform's azurerm provider
 * retries the same codes for peerings (virtual_network_peering_resource.go).
 */
export const BUSY_CODES: ReadonlySet<string> = new Set(['ReferencedResourceNotProvisioned', 'AnotherOperationInProgress', 'RetryableError']);

const codeOf = (error: unknown): string => {
  const e = error as { code?: unknown; message?: unknown };
  if (typeof e?.code === 'string' && BUSY_CODES.has(e.code)) return e.code;
  // A failed long-running operation may carry the code in its message only.
  const message = typeof e?.message === 'string' ? e.message : '';
  return [...BUSY_CODES].find((c) => message.includes(c)) ?? '';
};

/** Whether Azure refused because a referenced resource was busy (worth retrying). */
export function isBusy(error: unknown): boolean {
  return codeOf(error) !== '';
}

/**
 * Run `attempt` until it succeeds or fails for another reason, waiting
 * `delayMs`, 2×, 4×… (at most 8 tries) while Azure answers a busy code.
 */
export async function retryWhileBusy<T>(
  attempt: () => Promise<T>,
  options: { delayMs: number; signal: AbortSignal; tries?: number; onRetry?: (error: unknown, wait: number) => void },
): Promise<T> {
  const tries = options.tries ?? 8;
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      if (i >= tries || !isBusy(error)) throw error;
      const wait = options.delayMs * 2 ** (i - 1);
      options.onRetry?.(error, wait);
      await sleep(wait, undefined, { signal: options.signal });
    }
  }
}
