import { NetbenchError } from '@netbench/plugin-api';
import type { InsertRow } from './rows.js';

/** A BigQuery publish failure in words: what was refused, why, and what to do. */
export class BigQueryPublishError extends NetbenchError {
  override readonly name: string = 'BigQueryPublishError';
}

interface InnerError {
  readonly reason?: string;
  readonly message?: string;
  readonly location?: string;
}

interface SdkError {
  readonly name?: string;
  readonly code?: number | string;
  readonly message?: string;
  readonly errors?: readonly (InnerError & { readonly row?: InsertRow; readonly errors?: readonly InnerError[] })[];
}

const QUOTA_REASONS = new Set(['quotaExceeded', 'rateLimitExceeded', 'userRateLimitExceeded', 'backendError']);
const KEEP = 'The samples are safe in the run folder (and the local results store); send them again later.';

/**
 * Turn an error from the SDK into a `BigQueryPublishError` whose message
 * says what happened: quota and rate limits, missing permission, bad
 * credentials, rows BigQuery rejected (naming each sample), an unreachable
 * endpoint. `doing` names the step (`creating table p:d.t`).
 */
export function publishError(error: unknown, doing: string): BigQueryPublishError {
  const e = (error ?? {}) as SdkError;
  const reasons = (e.errors ?? []).map((inner) => inner.reason).filter((r): r is string => typeof r === 'string');
  const detail = e.message ?? String(error);
  if (e.name === 'PartialFailureError') return rejectedRows(e, doing);
  if (e.code === 403 && reasons.some((r) => QUOTA_REASONS.has(r))) {
    return new BigQueryPublishError(`${doing}: BigQuery quota or rate limit exceeded (${reasons.join(', ')}): ${detail}. ${KEEP}`, { cause: error });
  }
  if (e.code === 429) return new BigQueryPublishError(`${doing}: BigQuery rate limit exceeded (429) after retries: ${detail}. ${KEEP}`, { cause: error });
  if (e.code === 403) {
    return new BigQueryPublishError(
      `${doing}: access denied (${reasons.join(', ') || '403'}): ${detail}. The credentials need bigquery.tables.get, bigquery.tables.create and bigquery.tables.updateData (role BigQuery Data Editor) on the dataset.`,
      { cause: error },
    );
  }
  if (e.code === 401) return new BigQueryPublishError(`${doing}: the credentials were not accepted (401): ${detail}`, { cause: error });
  if (e.code === 404) return new BigQueryPublishError(`${doing}: not found (404): ${detail}`, { cause: error });
  if (typeof e.code === 'string' && /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ECONNRESET|ETIMEDOUT)$/.test(e.code)) {
    return new BigQueryPublishError(`${doing}: cannot reach BigQuery (${e.code}): ${detail}. ${KEEP}`, { cause: error });
  }
  if (/Unable to detect a Project Id|Could not load the default credentials/i.test(detail)) {
    return new BigQueryPublishError(`${doing}: ${detail}. Set projectId (and keyFilename or GOOGLE_APPLICATION_CREDENTIALS) in the bigquery publisher's settings.`, {
      cause: error,
    });
  }
  return new BigQueryPublishError(`${doing}: ${detail}${typeof e.code === 'number' ? ` (HTTP ${e.code})` : ''}`, { cause: error });
}

const LISTED_ROWS = 5;

/**
 * insertAll answered with insertErrors. Without skipInvalidRows BigQuery
 * inserts nothing from such a request: the bad rows carry the reason, the
 * others `stopped`. Name the bad rows by sample and metric.
 */
function rejectedRows(e: SdkError, doing: string): BigQueryPublishError {
  const failures = e.errors ?? [];
  const bad = failures.filter((f) => (f.errors ?? []).some((inner) => inner.reason !== 'stopped'));
  const listed = (bad.length > 0 ? bad : failures).slice(0, LISTED_ROWS).map((f) => {
    const row = f.row?.json;
    const what = row ? `sample ${row.sample_uri} (${row.metric})` : 'a row';
    const why = (f.errors ?? [])
      .filter((inner) => inner.reason !== 'stopped')
      .map((inner) => `${inner.reason ?? 'error'}${inner.location ? ` at ${inner.location}` : ''}: ${inner.message ?? ''}`)
      .join('; ');
    return `${what}: ${why || 'stopped'}`;
  });
  const more = (bad.length > 0 ? bad : failures).length - listed.length;
  return new BigQueryPublishError(
    `${doing}: BigQuery rejected ${bad.length || failures.length} row${(bad.length || failures.length) === 1 ? '' : 's'} of the request, so none of its ${failures.length} rows were stored: ${listed.join(' | ')}${more > 0 ? ` | and ${more} more` : ''}. Does the table have PKB's schema? ${KEEP}`,
    { cause: e },
  );
}
