import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Sample, TrialRecord } from '@netbench/plugin-api';
import { NetbenchError, PRIVATE_FILE_MODE } from '@netbench/plugin-api';
import { acquireRunLock } from '../../run-id/run-lock.js';
import { RUN_FILES } from '../run-files.js';
import { publishPending, readJournal, readTrialJournal, type StageJournal } from './run-journal.js';

/** What an earlier invocation of a run left for the next one. */
export interface RestoredRun {
  readonly journal: StageJournal;
  /** Trials that finished (succeeded or failed), by id: they are not run again. */
  readonly finished: ReadonlyMap<string, TrialRecord>;
  /** The finished trials' samples, each once. */
  readonly samples: readonly Sample[];
  /** Highest sample number used, so new sample ids do not repeat old ones. */
  readonly lastSample: number;
}

/**
 * Open a run folder to continue it: take its lock (refused while its process
 * still runs, or while another invocation continues it), then keep the
 * samples of finished trials only. A trial cut off by a crash may have
 * streamed some samples; they are dropped (the trial runs again),
 * and so are the run-level samples (phase durations), which the invocation
 * that ends the run writes again for every phase. `samples.jsonl` is
 * rewritten atomically to match, so each trial's samples appear exactly once.
 */
export async function restoreRun(runDir: string): Promise<RestoredRun> {
  await acquireRunLock(runDir);
  try {
    const journal = await readJournal(runDir).catch((error: unknown) => {
      throw new NetbenchError(`cannot read ${join(runDir, 'stages.json')}: ${error instanceof Error ? error.message : String(error)}`);
    });
    if (!journal) throw new NetbenchError(`${runDir} is not a run folder netbench can continue (no stages.json): it was made by an older netbench or is not a run folder`);
    if (journal.done.includes('teardown') && !publishPending(journal)) throw new NetbenchError(`run ${journal.runId} is finished (torn down); start a new run instead`);
    const finished = await readTrialJournal(runDir);
    const { samples, lastSample } = await keepFinishedSamples(runDir, journal.runId, finished);
    // Interval samples an attempt streamed live (events only: they are stored when it succeeds) used ids too.
    return { journal, finished, samples, lastSample: Math.max(lastSample, await lastStreamedSample(runDir, journal.runId)) };
  } catch (error) {
    // Refused: the lock goes, so the run is as it was.
    await rm(join(runDir, RUN_FILES.lock), { force: true });
    throw error;
  }
}

async function keepFinishedSamples(runDir: string, runId: string, finished: ReadonlyMap<string, TrialRecord>): Promise<{ samples: Sample[]; lastSample: number }> {
  const file = join(runDir, RUN_FILES.samples);
  let text = '';
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const samples: Sample[] = [];
  const seen = new Set<string>();
  let lastSample = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let sample: Sample;
    try {
      sample = JSON.parse(line) as Sample;
    } catch {
      continue; // a torn last line
    }
    lastSample = Math.max(lastSample, sampleNumber(sample.sampleId, runId));
    if (sample.trialId === undefined || !finished.has(sample.trialId) || seen.has(sample.sampleId)) continue;
    seen.add(sample.sampleId);
    samples.push(sample);
  }
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, samples.map((s) => `${JSON.stringify(s)}\n`).join(''), { mode: PRIVATE_FILE_MODE });
  await rename(temp, file);
  return { samples, lastSample };
}

/** The highest sample number in `events.jsonl` (the live `trial-interval` events carry their samples' ids). */
async function lastStreamedSample(runDir: string, runId: string): Promise<number> {
  let text = '';
  try {
    text = await readFile(join(runDir, RUN_FILES.events), 'utf8');
  } catch {
    return 0;
  }
  let last = 0;
  const prefix = `"sampleId":"${runId}-`;
  for (let at = text.indexOf(prefix); at !== -1; at = text.indexOf(prefix, at + prefix.length)) {
    const n = Number.parseInt(text.slice(at + prefix.length, at + prefix.length + 12), 10);
    if (Number.isInteger(n) && n > last) last = n;
  }
  return last;
}

function sampleNumber(sampleId: string, runId: string): number {
  const n = sampleId.startsWith(`${runId}-`) ? Number(sampleId.slice(runId.length + 1)) : Number.NaN;
  return Number.isInteger(n) ? n : 0;
}
