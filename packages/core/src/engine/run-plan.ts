import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { NetbenchEvent, RunRecord, RunStatus, Sample, TrialRecord } from '@netbench/plugin-api';
import { cannotCreate, defaultRunsDir, LedgerFile, makePrivateDir, NetbenchError, newRunId, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '@netbench/plugin-api';
import { stringify } from 'yaml';
import { EventLog, writeFailure } from '../events/event-log.js';
import type { Plan } from '../plan/types.js';
import type { PluginResolver } from '../registry/types.js';
import { MACHINE_LOCKS_DIR, removeMachineLock, runLockText, writeMachineLock } from '../run-id/run-lock.js';
import { coreVersion, currentUser } from '../run-id/run-owner.js';
import { EXIT_CODES } from './exit-codes.js';
import { assertOwnRunsDir } from './own-runs-dir.js';
import { publish, updateStoredRecord } from './publish.js';
import { recordSamples } from './record-samples.js';
import { resolvePlugins } from './resolve-plugins.js';
import { RUN_FILES, RunFiles } from './run-files.js';
import { runPhase } from './run-phase.js';
import { type RunState, reportError } from './run-state.js';
import type { RunStore } from './run-store.js';
import { buildRecord, phaseSamples } from './run-summary.js';
import { planFingerprint } from './stages/plan-fingerprint.js';
import { type RestoredRun, restoreRun } from './stages/restore-run.js';
import { publishPending, TrialJournal } from './stages/run-journal.js';
import { JournalWriter, runStages } from './stages/run-stages.js';
import { ALL_STAGES, includesStage, type StageRange } from './stages/stages.js';
import { releaseHosts, teardown } from './teardown.js';

export interface RunPlanOptions {
  registry: PluginResolver;
  /** Parent of the run folder; default `plan.spec.options.runsDir`, then `defaultRunsDir()`. */
  runsDir?: string;
  /** Default `newRunId()`. The run folder must not exist yet. */
  runId?: string;
  /** Interrupt: running trials abort, no new one starts, teardown and publish still run. */
  signal?: AbortSignal;
  /** Every event of the run, as it happens (also persisted to `events.jsonl`). */
  onEvent?: (event: NetbenchEvent) => void;
  /** Recorded in results; default the version of @netbench/core. */
  netbenchVersion?: string;
  /** Milliseconds a plugin call whose signal aborted may take to settle before the engine moves on (default 5000). */
  abortGraceMs?: number;
  /** Where the finished run is kept (the results store, from `@netbench/results`' `runStore`); none: not stored. */
  store?: RunStore;
  /**
   * Only these stages (`netbench run --stage`); default all. A range without
   * teardown keeps the fleet for a later invocation (`resume`), which finds
   * it from the ledger.
   */
  stages?: StageRange;
  /**
   * Continue the run `runId` in its existing folder: finished trials are
   * kept, cut-off ones run again, a kept fleet is found and verified.
   */
  resume?: boolean;
  /** `--set`s the spec was planned with, kept so that a later invocation plans the same. */
  sets?: readonly string[];
}

export interface RunOutcome {
  readonly record: RunRecord;
  readonly samples: Sample[];
  readonly exitCode: number;
  /** The fleet was kept for a later invocation (`--stage`, `--keep`): continue with `resumeRun`. */
  readonly kept?: boolean;
}

/**
 * Run a plan: provision → prepare → execute → teardown (always) → publish.
 * Resolves with the run's record, samples and exit code whatever happened to
 * the trials; rejects only when the run folder cannot be created.
 */
export async function runPlan(plan: Plan, options: RunPlanOptions): Promise<RunOutcome> {
  if (options.resume && !options.runId) throw new NetbenchError('resume needs the id of the run to continue');
  const runId = options.runId ?? newRunId();
  const runsDir = resolve(options.runsDir ?? plan.spec.options.runsDir ?? defaultRunsDir());
  const runDir = join(runsDir, runId);
  const range = options.stages ?? ALL_STAGES;
  let restored: RestoredRun | undefined;
  if (options.resume) restored = await restoreRun(runDir);
  else if (range.from !== 'provision') throw new NetbenchError(`a new run starts with provision; continue run RUN with --resume RUN --stage ${range.from}`);
  else await createRunDir(runsDir, runDir, options.runsDir === undefined && plan.spec.options.runsDir !== undefined);
  const startedAt = restored ? new Date(restored.journal.startedAt) : new Date();
  // Nothing exists yet: a run folder that cannot be written stops the run here, with nothing to tear down.
  // (A resumed run took its lock in restoreRun, before touching its files.)
  if (!restored) await writeRunFile(join(runDir, RUN_FILES.lock), runLockText(runId));
  // A copy outside the runs folder: `cleanup --all` from another runs folder spares this run while it lives.
  // Refused when someone else made the run's RAM directory first: nothing exists yet, and the run folder is left unlocked.
  const machineLockProblem = await writeMachineLock(runId).catch(async (error: unknown) => {
    await rm(join(runDir, RUN_FILES.lock), { force: true });
    throw error;
  });
  if (!restored) await writeRunFile(join(runDir, RUN_FILES.spec), plan.spec.source?.text ?? stringify({ ...plan.spec, source: undefined }));
  const journal = new JournalWriter(
    runDir,
    restored?.journal ?? { runId, sets: [...(options.sets ?? [])], done: [], provisionStarted: false, startedAt: startedAt.toISOString(), phases: [], plan: planFingerprint(plan) },
  );
  if (!restored)
    await journal.update({}).catch((error: unknown) => {
      throw new NetbenchError(`cannot write ${join(runDir, 'stages.json')}: ${writeFailure(error)}; nothing was created`, { cause: error });
    });

  const events = new EventLog(runId, join(runDir, RUN_FILES.events));
  if (options.onEvent) events.listen(options.onEvent);
  const state: RunState = {
    plan,
    runId,
    runDir,
    startedAt,
    owner: currentUser(),
    netbenchVersion: options.netbenchVersion ?? coreVersion(),
    registry: options.registry,
    events,
    ledger: await LedgerFile.open(join(runDir, RUN_FILES.ledger), runId),
    files: new RunFiles(runDir, (message) => events.emit({ type: 'warning', message })),
    signal: options.signal ?? new AbortController().signal,
    graceMs: options.abortGraceMs ?? 5000,
    clouds: new Map(),
    tools: new Map(),
    hosts: new Map(),
    servers: [],
    tunnels: [],
    toolInfo: new Map(),
    fingerprints: new Map(),
    trials: new Map(plan.trials.map((t) => [t.id, restored?.finished.get(t.id) ?? skippedTrial(t)])),
    samples: [...(restored?.samples ?? [])],
    phases: [...journal.journal.phases],
    errors: [],
    teardownErrors: 0,
    publishErrors: 0,
    nextSample: restored?.lastSample ?? 0,
    ...(restored ? { finished: new Set(restored.finished.keys()), restoredHosts: restored.journal.hosts ?? [] } : {}),
    ...(options.store ? { store: { sink: options.store, stored: false } } : {}),
  };
  // A finished trial's record goes to trials.jsonl after its samples: what `--resume` skips.
  const trialJournal = new TrialJournal(runDir);
  events.listen((event) => {
    // A trial that failed because the run was interrupted was cut off, not finished: `--resume` runs it again.
    if (event.type === 'trial-finished' && !(event.status === 'failed' && state.signal.aborted)) trialJournal.append(state.trials.get(event.trial)!);
  });
  journal.onWriteError = (message) => events.emit({ type: 'warning', message });
  events.emit({ type: 'run-started', name: plan.spec.name, runDir, trials: plan.trials.length, hosts: plan.fleet.length, estimatedSeconds: plan.estimatedSeconds });
  if (machineLockProblem) events.emit({ type: 'warning', message: machineLockProblem });

  let exitCode: number = EXIT_CODES.ok;
  let status: RunStatus = 'succeeded';
  let provisionFailed = false;
  // Died while publishing, after teardown: nothing is measured or torn down again, the outcome is the one it had.
  const publishOnly = restored !== undefined && publishPending(restored.journal);
  if (publishOnly) return finishRun(state, journal, trialJournal, restored!.journal.publish!.status, restored!.journal.publish!.exitCode);
  try {
    const resolved = await resolvePlugins(state);
    if (resolved !== EXIT_CODES.ok) {
      [status, exitCode] = ['failed', resolved];
    } else if (!state.signal.aborted) {
      const outcome = await runStages(state, range, journal);
      [status, exitCode] = [outcome.status, outcome.exitCode];
      provisionFailed = outcome.provisionFailed;
    }
  } catch (error) {
    // Only a bug in the engine itself lands here; teardown must still happen.
    reportError(state, error);
    [status, exitCode] = ['failed', EXIT_CODES.error];
  }
  // Whatever failed, an interrupt is what the user sees (130); a leak outranks both.
  if (state.signal.aborted) [status, exitCode] = ['interrupted', EXIT_CODES.interrupted];
  // The run ends here only when the range reaches teardown (or provisioning failed); otherwise the fleet is kept.
  const closing = includesStage(range, 'teardown') || provisionFailed;
  const released = closing ? await runPhase(state, 'teardown', () => teardown(state)) : (await releaseHosts(state)) === 0;
  if (!released) {
    exitCode = EXIT_CODES.teardownFailed;
    if (status !== 'interrupted') status = 'failed';
  }
  if (closing && released) await journal.finish('teardown');
  // Torn down before execute ever finished (`--stage teardown` on a kept fleet): the run did not do what it planned.
  if (closing && status === 'succeeded' && !journal.journal.done.includes('execute')) {
    const neverRan = [...state.trials.values()].filter((t) => t.attempts === 0).length;
    if (neverRan > 0) {
      status = 'interrupted';
      reportError(state, new NetbenchError(`torn down before every trial ran: ${neverRan} of ${state.trials.size} trials never ran`), 'teardown');
    }
  }
  if (state.hosts.size > 0) await journal.update({ hosts: buildRecord(state, status).hosts });
  await journal.update({ phases: [...state.phases] });
  if (!closing) {
    trialJournal.close();
    return keepRun(state, status, exitCode);
  }
  return finishRun(state, journal, trialJournal, status, exitCode);
}

/**
 * The end of a run that was torn down: results.json, then the store and every
 * publisher (each marked done in stages.json as it finishes, so a process
 * killed here is continued by `--resume` with only what is left), then the
 * record with the publish phase.
 */
async function finishRun(state: RunState, journal: JournalWriter, trialJournal: TrialJournal, status: RunStatus, exitCode: number): Promise<RunOutcome> {
  const { events, runDir, runId, startedAt } = state;
  trialJournal.close();
  const earlier = journal.journal.publish;
  if (earlier)
    events.emit({
      type: 'warning',
      message: `run ${runId} was torn down but died while publishing; publishing again to what it had not finished (${earlier.done.length > 0 ? `done: ${earlier.done.join(', ')}` : 'nothing was done'})`,
    });
  const done = new Set(earlier?.done ?? []);
  await journal.update({ publish: { done: [...done], finished: false, status, exitCode } });
  recordSamples(state, phaseSamples(state));
  const samples = [...state.samples];
  let record = buildRecord(state, status);
  // results.json first: it is the run's own copy and must not depend on any publisher.
  // A full disk loses it (an error, exit 1 unless worse) but not the publishers' copies.
  const resultsWritten = await writeResults(state, record, samples);
  if (!resultsWritten && exitCode === EXIT_CODES.ok) exitCode = EXIT_CODES.error;
  const markDone = async (key: string) => {
    done.add(key);
    await journal.update({ publish: { done: [...done], finished: false, status, exitCode } });
  };
  const published = await runPhase(state, 'publish', () => publish(state, record, samples, { done, markDone }));
  if (!published && exitCode === EXIT_CODES.ok) exitCode = EXIT_CODES.publishFailed;
  record = buildRecord(state, status);
  if (resultsWritten) await writeResults(state, record, samples);
  if (!(await updateStoredRecord(state, record)) && exitCode === EXIT_CODES.ok) exitCode = EXIT_CODES.publishFailed;
  await journal.update({ publish: { done: [...done], finished: true, status, exitCode } });

  events.emit({
    type: 'run-finished',
    status,
    durationMs: Date.now() - startedAt.getTime(),
    failedTrials: record.trials.filter((t) => t.status === 'failed').length,
    teardownErrors: state.teardownErrors,
  });
  state.files.close();
  await state.ledger.close();
  events.close();
  await rm(join(runDir, RUN_FILES.lock), { force: true });
  await removeMachineLock(runId);
  return { record, samples, exitCode };
}

/** End an invocation that keeps the fleet: results.json as it stands, nothing published yet. */
async function keepRun(state: RunState, status: RunStatus, exitCode: number): Promise<RunOutcome> {
  const samples = [...state.samples];
  const record = buildRecord(state, status);
  if (!(await writeResults(state, record, samples)) && exitCode === EXIT_CODES.ok) exitCode = EXIT_CODES.error;
  state.events.emit({
    type: 'run-finished',
    status,
    durationMs: Date.now() - state.startedAt.getTime(),
    failedTrials: record.trials.filter((t) => t.status === 'failed').length,
    teardownErrors: state.teardownErrors,
  });
  state.files.close();
  await state.ledger.close();
  state.events.close();
  await rm(join(state.runDir, RUN_FILES.lock), { force: true });
  // The RAM directory stays until the run ends: between stages no one else can take its (known) name.
  await removeMachineLock(state.runId, MACHINE_LOCKS_DIR, { keepDir: true });
  return { record, samples, exitCode, kept: true };
}

async function writeResults(state: RunState, record: RunRecord, samples: Sample[]): Promise<boolean> {
  try {
    await state.files.writeResults({ run: record, samples });
    return true;
  } catch (error) {
    reportError(state, new Error(`cannot write results.json: ${writeFailure(error)}`));
    return false;
  }
}

async function writeRunFile(file: string, text: string): Promise<void> {
  try {
    await writeFile(file, text, { mode: PRIVATE_FILE_MODE });
  } catch (error) {
    await rm(file, { force: true }).catch(() => {});
    throw new NetbenchError(`cannot write ${file}: ${writeFailure(error)}; nothing was created`, { cause: error });
  }
}

async function createRunDir(runsDir: string, runDir: string, fromSpec: boolean): Promise<void> {
  await makePrivateDir(runsDir, 'the runs folder');
  if (fromSpec) await assertOwnRunsDir(runsDir);
  try {
    await mkdir(runDir, { mode: PRIVATE_DIR_MODE });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new NetbenchError(`run folder ${runDir} already exists: a run id is used once`);
    throw cannotCreate(error, runDir, 'the run folder');
  }
}

function skippedTrial(t: Plan['trials'][number]): TrialRecord {
  return {
    id: t.id,
    tool: t.tool,
    test: t.test,
    benchmarkName: t.benchmarkName,
    params: t.params,
    cell: t.cell,
    client: t.client,
    server: t.server,
    status: 'skipped',
    attempts: 0,
    rawFiles: [],
    sampleCount: 0,
  };
}
