import { classifiedError } from '@netbench/plugin-api/cloud-kit';

/** What a GCE error means for netbench. */
export type GceErrorKind = 'quota' | 'capacity' | 'not-found' | 'in-use' | 'exists' | 'other';

/** An operation's `error.errors[]` entry, or the HTTP error's `errors[]`. */
interface ErrorItem {
  readonly code?: string | null;
  readonly reason?: string | null;
  readonly message?: string | null;
}

const CAPACITY_CODES = new Set(['ZONE_RESOURCE_POOL_EXHAUSTED', 'ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS', 'RESOURCE_POOL_EXHAUSTED']);
const QUOTA_CODES = new Set(['QUOTA_EXCEEDED', 'quotaExceeded', 'rateLimitExceeded']);
const QUOTA_RE = /\bquota\b.*\bexceeded\b|\bexceeded\b.*\bquota\b/i;
const CAPACITY_RE = /does not have enough resources available|resource pool exhausted/i;
const NOT_FOUND_RE = /\bwas not found\b/i;
const IN_USE_RE = /resourceInUseByAnotherResource|is already being used by|is not ready/i;
const EXISTS_RE = /\balready exists\b/i;

function kindOf(code: string | undefined, message: string): GceErrorKind {
  if (code && CAPACITY_CODES.has(code)) return 'capacity';
  if (code && QUOTA_CODES.has(code)) return 'quota';
  if (code === 'RESOURCE_NOT_FOUND' || code === 'notFound') return 'not-found';
  if (code === 'RESOURCE_IN_USE_BY_ANOTHER_RESOURCE' || code === 'resourceInUseByAnotherResource' || code === 'RESOURCE_NOT_READY' || code === 'resourceNotReady') return 'in-use';
  if (code === 'RESOURCE_ALREADY_EXISTS' || code === 'alreadyExists') return 'exists';
  if (CAPACITY_RE.test(message)) return 'capacity';
  if (QUOTA_RE.test(message)) return 'quota';
  if (NOT_FOUND_RE.test(message)) return 'not-found';
  if (IN_USE_RE.test(message)) return 'in-use';
  if (EXISTS_RE.test(message)) return 'exists';
  return 'other';
}

/**
 * Classify an error thrown by the SDK (a google-gax `GoogleError`: numeric gRPC
 * `code`, `httpStatusCode`, maybe `reason`) or a failed operation's items.
 */
export function classify(error: unknown): GceErrorKind {
  if (error instanceof OperationError) return error.kind;
  const e = error as { code?: unknown; httpStatusCode?: unknown; reason?: unknown; message?: unknown };
  const message = typeof e?.message === 'string' ? e.message : String(error);
  const reason = typeof e?.reason === 'string' ? e.reason : undefined;
  const kind = kindOf(reason, message);
  if (kind !== 'other') return kind;
  // gRPC NOT_FOUND (5) / HTTP 404 with no message we recognise.
  if (e?.httpStatusCode === 404 || (e?.code === 5 && e?.httpStatusCode === undefined)) return 'not-found';
  // HTTP 409 / gRPC ALREADY_EXISTS (6).
  if (e?.httpStatusCode === 409 || (e?.code === 6 && e?.httpStatusCode === undefined)) return 'exists';
  return 'other';
}

/** An operation that finished (`DONE`) with errors. */
export class OperationError extends Error {
  override readonly name = 'OperationError';
  readonly kind: GceErrorKind;
  constructor(
    readonly operation: string,
    readonly items: readonly ErrorItem[],
  ) {
    super(items.map((i) => `${i.code ?? i.reason ?? 'ERROR'}: ${i.message ?? ''}`.trim()).join('; ') || `operation ${operation} failed`);
    const kinds = items.map((i) => kindOf(i.code ?? i.reason ?? undefined, i.message ?? ''));
    this.kind = kinds.find((k) => k !== 'other') ?? 'other';
  }
}

/** netbench's retryable errors for quota and capacity; anything else unchanged. */
export function toNetbenchError(error: unknown, context: string): unknown {
  return classifiedError(error, context, classify(error));
}
