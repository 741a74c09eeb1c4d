import { CapacityError, QuotaError } from '../errors/index.js';

/**
 * netbench's error for a cloud failure the plugin has classified: a
 * `QuotaError` or `CapacityError` (retryable, so the engine can fall back to
 * another zone or wait) with `context` before the cloud's message, the
 * original as `cause`; any other kind is the error unchanged.
 */
export function classifiedError(error: unknown, context: string, kind: string): unknown {
  const message = `${context}: ${error instanceof Error ? error.message : String(error)}`;
  switch (kind) {
    case 'quota':
      return new QuotaError(message, { cause: error });
    case 'capacity':
      return new CapacityError(message, { cause: error });
    default:
      return error;
  }
}
