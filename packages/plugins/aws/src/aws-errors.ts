import { CapacityError, QuotaError } from '@netbench/plugin-api';

/** The error code of an AWS SDK error (EC2's query protocol puts it in `name`; some shapes also carry `Code`). */
export function awsErrorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { Code, code, name } = error as { Code?: unknown; code?: unknown; name?: unknown };
  for (const candidate of [Code, code, name]) {
    if (typeof candidate === 'string' && candidate !== '' && candidate !== 'Error') return candidate;
  }
  return undefined;
}

/** Quotas: every `*LimitExceeded` except throttling, which the SDK retries itself. */
const QUOTA_RE = /^(?:VcpuLimitExceeded|InstanceLimitExceeded|MaxSpotInstanceCountExceeded|\w+LimitExceeded)$/;
const THROTTLING = new Set(['RequestLimitExceeded', 'Throttling', 'ThrottlingException']);
/** No room for the type in the zone now; `Unsupported` is a type not offered in the zone. Another zone may do. */
const CAPACITY = new Set([
  'InsufficientInstanceCapacity',
  'InsufficientHostCapacity',
  'InsufficientCapacity',
  'InsufficientAddressCapacity',
  'InsufficientCapacityOnHost',
  'Unsupported',
]);
const NOT_FOUND_RE = /(?:\.NotFound|\.Unknown)$/;
const GONE = new Set(['Gateway.NotAttached']);
const DEPENDENCY = new Set(['DependencyViolation', 'InvalidGroup.InUse', 'InvalidPlacementGroup.InUse', 'ResourceInUse']);

export function isQuotaCode(code: string | undefined): boolean {
  return code !== undefined && QUOTA_RE.test(code) && !THROTTLING.has(code);
}

export function isCapacityCode(code: string | undefined): boolean {
  return code !== undefined && CAPACITY.has(code);
}

/** The resource is already gone: a delete succeeded earlier, or it was never made. */
export function isNotFound(error: unknown): boolean {
  const code = awsErrorCode(error);
  return code !== undefined && (NOT_FOUND_RE.test(code) || GONE.has(code));
}

/** Something still uses the resource (an instance that is shutting down, an attached gateway): retry later. */
export function isDependencyViolation(error: unknown): boolean {
  const code = awsErrorCode(error);
  return code !== undefined && DEPENDENCY.has(code);
}

/**
 * Turn quota and capacity refusals into netbench's retryable errors (the
 * engine and `fallbackZones` act on them); anything else is returned as is.
 */
export function mapAwsError(error: unknown, where: string): unknown {
  const code = awsErrorCode(error);
  const detail = error instanceof Error ? error.message : String(error);
  if (isQuotaCode(code)) {
    return new QuotaError(`AWS quota exceeded in ${where} (${code}): ${detail} — request more with Service Quotas, or use another region`, { cause: error });
  }
  if (isCapacityCode(code)) {
    return new CapacityError(`AWS has no capacity in ${where} (${code}): ${detail} — try another zone (fallbackZones) or machine type`, { cause: error });
  }
  return error;
}
