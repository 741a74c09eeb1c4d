import type { RunRecord, Sample } from '@netbench/plugin-api';

/**
 * Where a finished run is kept: the results store. Given by the caller
 * (`runStore()` of `@netbench/results`), so the engine does not depend on it.
 */
export interface RunStore {
  /** Shown as the `published` event's location (e.g. the database file). */
  readonly location: string;
  /** Ingest the run and its samples (one transaction). */
  ingest(record: RunRecord, samples: readonly Sample[]): Promise<void>;
  /** Replace the stored run's record with its final one (after publish). */
  updateRecord(record: RunRecord): Promise<void>;
}
