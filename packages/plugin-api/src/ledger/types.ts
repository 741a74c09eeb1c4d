/** A resource a cloud plugin creates; `type` + `id` identify it for deletion. */
export interface LedgerResource {
  /** Plugin-defined kind, e.g. `netns`, `bridge`, `process`, `ec2-instance`. */
  readonly type: string;
  /** Identifier the plugin deletes by (a name known before creation when possible). */
  readonly id: string;
  /** Fleet host the resource belongs to, if any. */
  readonly host?: string;
  /** Whatever else teardown needs (region, zone, pid start time, ...). JSON only. */
  readonly data?: Readonly<Record<string, unknown>>;
}

export type LedgerPhase = 'intent' | 'created' | 'failed' | 'deleted' | 'delete-failed';

/** One line of `ledger.jsonl`. */
export interface LedgerEntry {
  readonly seq: number;
  /** ISO-8601 time the line was written. */
  readonly time: string;
  readonly runId: string;
  /** Cloud plugin name responsible for the resource. */
  readonly plugin: string;
  readonly phase: LedgerPhase;
  readonly resource: LedgerResource;
  readonly error?: string;
}

/**
 * Write-ahead record of created resources. Intent is written *before* the
 * resource is created so that a crash between the two can still be cleaned.
 */
export interface Ledger {
  /** Record intent, run `create`, record the result. If `create` throws, a
   *  `failed` entry is written and the error re-thrown; teardown still visits
   *  the resource (deletes are idempotent). */
  track<T>(resource: LedgerResource, create: () => Promise<T>): Promise<T>;
  /** Record a resource that already exists (e.g. a started process with its pid). */
  created(resource: LedgerResource): Promise<void>;
  readonly entries: readonly LedgerEntry[];
}
