import { closeSync, openSync, writeSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { HostRecord, PhaseRecord, RunStatus, TrialRecord } from '@netbench/plugin-api';
import { PRIVATE_FILE_MODE } from '@netbench/plugin-api';
import type { PlanFingerprint } from './plan-fingerprint.js';
import type { Stage } from './stages.js';

/** Files a run keeps so that a later invocation can continue it. */
export const JOURNAL_FILES = {
  /** Which stages are done, the `--set`s, the phases so far. */
  stages: 'stages.json',
  /** One line per finished trial (its record), written after its samples. */
  trials: 'trials.jsonl',
} as const;

export interface StageJournal {
  readonly runId: string;
  /** Spec overrides of the first invocation: every later one plans the same spec. */
  readonly sets: readonly string[];
  /** Stages finished, in order. `provision` here and `teardown` not: the fleet exists. */
  readonly done: readonly Stage[];
  /** Set when `provision` began: its resources are in the ledger even if it never finished. */
  readonly provisionStarted: boolean;
  readonly startedAt: string;
  readonly phases: readonly PhaseRecord[];
  /** The fleet as the run record describes it, for the record of an invocation that only tears down. */
  readonly hosts?: readonly HostRecord[];
  /** What the first invocation planned: a later one whose plan differs is refused (absent in runs of older versions). */
  readonly plan?: PlanFingerprint;
  /**
   * Written when publishing begins, after teardown: a run killed while it
   * publishes is continued by `--resume`, which publishes to what is not in
   * `done` yet, with the outcome the run had. Absent until then.
   */
  readonly publish?: PublishJournal;
}

/** How far publishing got: the results store and each `publish[]` entry, by key (`store`, `publish[0]`, …). */
export interface PublishJournal {
  readonly done: readonly string[];
  /** Every sink was tried (some may have failed): the run is over. */
  readonly finished: boolean;
  /** The run's outcome as teardown left it: a resumed publish records the same. */
  readonly status: RunStatus;
  readonly exitCode: number;
}

/** A run that was torn down but whose publishing never finished (the process died in it). */
export function publishPending(journal: StageJournal): boolean {
  return journal.done.includes('teardown') && journal.publish !== undefined && !journal.publish.finished;
}

export async function readJournal(runDir: string): Promise<StageJournal | undefined> {
  try {
    return JSON.parse(await readFile(join(runDir, JOURNAL_FILES.stages), 'utf8')) as StageJournal;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Replace `stages.json` atomically, so a kill mid-write leaves the previous state. */
export async function writeJournal(runDir: string, journal: StageJournal): Promise<void> {
  const file = join(runDir, JOURNAL_FILES.stages);
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(journal, null, 2)}\n`, { mode: PRIVATE_FILE_MODE });
  await rename(temp, file);
}

/**
 * Appends a finished trial's record to `trials.jsonl`. Synchronous, like the
 * samples stream, and written after the trial's samples: a line here means
 * every sample of that trial is already in `samples.jsonl`.
 */
export class TrialJournal {
  private fd: number | undefined;

  constructor(runDir: string) {
    try {
      this.fd = openSync(join(runDir, JOURNAL_FILES.trials), 'a', PRIVATE_FILE_MODE);
    } catch {
      // Without it a resume re-runs every trial; the run itself goes on.
    }
  }

  append(record: TrialRecord): void {
    if (this.fd === undefined) return;
    try {
      writeSync(this.fd, `${JSON.stringify(record)}\n`);
    } catch {
      this.close();
    }
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

/** Finished trials by id (the last line wins); a torn last line is skipped. */
export async function readTrialJournal(runDir: string): Promise<Map<string, TrialRecord>> {
  const records = new Map<string, TrialRecord>();
  let text = '';
  try {
    text = await readFile(join(runDir, JOURNAL_FILES.trials), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const record = JSON.parse(line) as TrialRecord;
      records.set(record.id, record);
    } catch {
      // Only a kill mid-write tears a line; that trial counts as cut off.
    }
  }
  return records;
}
