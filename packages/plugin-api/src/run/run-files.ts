import type { Sample } from '../samples/types.js';
import type { RunRecord } from './run-record.js';

/** Names of the files in a run folder. */
export const RUN_FILES = {
  ledger: 'ledger.jsonl',
  events: 'events.jsonl',
  samples: 'samples.jsonl',
  spec: 'spec.yaml',
  results: 'results.json',
  lock: 'run.lock',
  raw: 'raw',
} as const;

/** The body of `results.json`. */
export interface RunResults {
  readonly run: RunRecord;
  readonly samples: readonly Sample[];
}
