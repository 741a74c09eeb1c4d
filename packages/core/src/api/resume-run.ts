import { readFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { defaultRunsDir, NetbenchError, REDACTED, RUN_FILES } from '@netbench/plugin-api';
import { type RunOutcome, runPlan } from '../engine/run-plan.js';
import { planChanges, planFingerprint } from '../engine/stages/plan-fingerprint.js';
import { publishPending, readJournal } from '../engine/stages/run-journal.js';
import { resumeRange } from '../engine/stages/run-stages.js';
import type { StageRange } from '../engine/stages/stages.js';
import { specTextAsRun } from '../spec/spec-as-run.js';
import { planSpec } from './plan-spec.js';
import { keptRange, type RunSpecOptions } from './run-spec.js';

export interface ResumeRunOptions extends Omit<RunSpecOptions, 'file' | 'sets' | 'runId' | 'maxCostUsd'> {
  /** A run id (in `runsDir`) or a run folder path. */
  readonly run: string;
  /** When given, must be the spec the run was started with (same text). */
  readonly file?: string;
}

/** Where a run named on the command line lives: a folder path, or an id under the runs folder. */
export function runFolder(run: string, runsDir?: string): string {
  return run.includes('/') ? resolve(run) : join(resolve(runsDir ?? defaultRunsDir()), run);
}

/**
 * `netbench run --resume RUN`: continue a run whose process died, or the
 * next `--stage` of a staged run. The spec is the one in the run folder, with
 * the `--set`s of the first invocation, so every invocation plans the same trials.
 */
export async function resumeRun(options: ResumeRunOptions): Promise<RunOutcome> {
  const runDir = runFolder(options.run, options.runsDir);
  const journal = await readJournal(runDir).catch(() => undefined);
  if (!journal) throw new NetbenchError(`${runDir}: no run to continue there (no stages.json); give a run id or folder from \`netbench run\``);
  // Said before anything is planned: a finished run's spec may no longer plan at all.
  if (journal.done.includes('teardown') && !publishPending(journal)) throw new NetbenchError(`run ${journal.runId} is finished (torn down); start a new run instead`);
  const specFile = join(runDir, RUN_FILES.spec);
  if (options.file !== undefined) {
    const [given, kept] = await Promise.all([readFile(options.file, 'utf8'), readFile(specFile, 'utf8')]);
    if (given !== kept && specTextAsRun(given, journal.sets) !== kept)
      throw new NetbenchError(`${options.file} differs from the spec run ${journal.runId} was started with (${specFile}); leave SPEC out to continue with the run's own spec`);
  }
  // A secret given literally was never stored: the run cannot be planned again without it.
  if (journal.sets.some((set) => set.includes(REDACTED)) || (await readFile(specFile, 'utf8')).includes(REDACTED)) {
    throw new NetbenchError(
      `run ${journal.runId} was started with a secret written literally (it was not stored); give secrets as \${env:NAME} or \${file:/path} to run a study in several invocations`,
    );
  }
  const { plan, warnings } = await planSpec({ file: specFile, sets: journal.sets, registry: options.registry });
  const changes = journal.plan ? planChanges(journal.plan, planFingerprint(plan)) : [];
  if (changes.length > 0) {
    const why = `run ${journal.runId} plans differently now than at its first invocation (${changes.join('; ')}): its spec.yaml in the run folder was edited, or netbench or a plugin that plans it changed`;
    // Teardown works from the ledger, whatever the plan: it is never refused.
    if (options.stages?.from === 'teardown') options.onWarning?.(`${why}; tearing down from the ledger all the same`);
    else throw new NetbenchError(`${why}. Restore it to continue, or tear the run down (--stage teardown) and start a new one`);
  }
  for (const warning of warnings) options.onWarning?.(warning);
  if (publishPending(journal) && options.stages && options.stages.from !== 'teardown') {
    throw new NetbenchError(`run ${journal.runId} is torn down; only its publishing is left: continue it with --resume alone (or --stage teardown)`);
  }
  const stages: StageRange = options.stages ? keptRange(options.stages, options.keep)! : resumeRange(journal, options.keep ?? false);
  return runPlan(plan, {
    registry: options.registry,
    runsDir: dirname(runDir),
    runId: basename(runDir),
    resume: true,
    stages,
    signal: options.signal,
    onEvent: options.onEvent,
    netbenchVersion: options.netbenchVersion,
    ...(options.store ? { store: options.store } : {}),
  });
}
