import { classifiedError } from '@netbench/plugin-api/cloud-kit';

export type ArmErrorKind = 'quota' | 'capacity' | 'not-found' | 'other';

const CAPACITY_CODES = ['SkuNotAvailable', 'AllocationFailed', 'ZonalAllocationFailed', 'OverconstrainedAllocationRequest', 'OverconstrainedZonalAllocationRequest'];
const CAPACITY_RE = new RegExp(`\\b(${CAPACITY_CODES.join('|')})\\b`);
const QUOTA_RE = /\bQuotaExceeded\b|\bquota\b/i;
const NOT_FOUND_CODES = new Set(['ResourceNotFound', 'ResourceGroupNotFound', 'ParentResourceNotFound', 'NotFound']);

/**
 * Classify a Resource Manager error: a `RestError` (`code`, `statusCode`)
 * from a refused request, or the error a failed long-running operation
 * rejects with ("The long-running operation has failed. AllocationFailed. …").
 */
export function classify(error: unknown): ArmErrorKind {
  const e = error as { code?: unknown; statusCode?: unknown; message?: unknown };
  const code = typeof e?.code === 'string' ? e.code : '';
  const message = typeof e?.message === 'string' ? e.message : String(error);
  if (CAPACITY_CODES.includes(code) || CAPACITY_RE.test(message)) return 'capacity';
  if (code === 'QuotaExceeded' || (code === 'OperationNotAllowed' && QUOTA_RE.test(message)) || /\bQuotaExceeded\b/.test(message)) return 'quota';
  if (NOT_FOUND_CODES.has(code) || e?.statusCode === 404) return 'not-found';
  return 'other';
}

export function toNetbenchError(error: unknown, context: string): unknown {
  return classifiedError(error, context, classify(error));
}
