import type { RunStatus } from '@netbench/plugin-api';
import { NetbenchError } from '@netbench/plugin-api';
import { execute } from '../execute.js';
import { EXIT_CODES } from '../exit-codes.js';
import { prepare } from '../prepare.js';
import { provision } from '../provision.js';
import { runPhase } from '../run-phase.js';
import { type RunState, reportError } from '../run-state.js';
import { teardown } from '../teardown.js';
import { cloudsWithoutReattach, reattach } from './reattach.js';
import { publishPending, type StageJournal, writeJournal } from './run-journal.js';
import { includesStage, STAGES, type Stage, type StageRange } from './stages.js';

/** Keeps `stages.json` in step with what this invocation has done. */
export class JournalWriter {
  /** Set once the run has begun: from then on a failed write is a warning, never a reason to skip teardown. */
  onWriteError: ((message: string) => void) | undefined;

  constructor(
    private readonly runDir: string,
    private current: StageJournal,
  ) {}

  get journal(): StageJournal {
    return this.current;
  }

  async update(patch: Partial<StageJournal>): Promise<void> {
    this.current = { ...this.current, ...patch };
    try {
      await writeJournal(this.runDir, this.current);
    } catch (error) {
      if (!this.onWriteError) throw error;
      // The ledger still lists every resource: `netbench cleanup RUN` works; only `--resume` loses track.
      this.onWriteError(
        `cannot write stages.json (${error instanceof Error ? error.message : String(error)}): this run may not be resumable; \`netbench cleanup\` still removes what it made`,
      );
    }
  }

  async finish(stage: Stage): Promise<void> {
    if (!this.current.done.includes(stage)) await this.update({ done: STAGES.filter((s) => s === stage || this.current.done.includes(s)) });
  }
}

export interface StagesOutcome {
  readonly status: RunStatus;
  readonly exitCode: number;
  /** Provisioning failed here: what it made is torn down even when the range stops before teardown. */
  readonly provisionFailed: boolean;
}

const ok: StagesOutcome = { status: 'succeeded', exitCode: EXIT_CODES.ok, provisionFailed: false };

/**
 * The measuring stages of one invocation: provision (or find the fleet an
 * earlier invocation made), prepare, execute. Teardown and publishing are
 * the caller's, since they run whatever happened here. Every tool is
 * prepared in any invocation that executes: servers live as long as the
 * process that started them.
 */
export async function runStages(state: RunState, range: StageRange, journal: JournalWriter): Promise<StagesOutcome> {
  const wants = (stage: Stage) => includesStage(range, stage);
  const done = new Set(journal.journal.done);
  const needHosts = wants('prepare') || wants('execute');
  const failed = (exitCode: number, provisionFailed = false): StagesOutcome => ({ status: 'failed', exitCode, provisionFailed });

  // A fleet kept past this process must be findable by the next one: refuse before anything is made.
  const kept = !(wants('provision') && wants('teardown'));
  const missing = cloudsWithoutReattach(state);
  if (kept && (wants('provision') || needHosts) && missing.length > 0) {
    reportError(state, new NetbenchError(`cloud ${missing.join(', ')} cannot keep hosts between invocations (no reattach): run every stage in one invocation`), 'provision');
    return failed(EXIT_CODES.provisionFailed);
  }

  if (wants('provision') && !done.has('provision')) {
    if (journal.journal.provisionStarted) {
      // The process died while provisioning: clear the half-made fleet, then make it again.
      if (!(await runPhase(state, 'teardown', () => teardown(state)))) return failed(EXIT_CODES.teardownFailed);
    }
    await journal.update({ provisionStarted: true });
    if (!(await runPhase(state, 'provision', () => provision(state)))) return failed(EXIT_CODES.provisionFailed, true);
    await journal.finish('provision');
  } else {
    // Asked again (a retried job): nothing to make; the kept fleet is what later stages use.
    if (wants('provision'))
      state.events.emit({ type: 'warning', message: `run ${state.runId}: provision was done by an earlier invocation; its fleet is kept, nothing is made again` });
    if (!needHosts) return ok;
    if (!done.has('provision')) {
      reportError(state, new NetbenchError(`run ${state.runId} has no fleet yet: run --stage provision first`), 'provision');
      return failed(EXIT_CODES.provisionFailed);
    }
    if (!(await runPhase(state, 'provision', () => reattach(state)))) return failed(EXIT_CODES.provisionFailed);
  }
  if (state.signal.aborted || !needHosts) return ok;

  if (!(await runPhase(state, 'prepare', () => prepare(state)))) return state.signal.aborted ? ok : failed(EXIT_CODES.provisionFailed);
  if (wants('prepare')) await journal.finish('prepare');
  if (!wants('execute') || state.signal.aborted) return ok;

  const allOk = await runPhase(state, 'execute', () => execute(state));
  // Interrupted: the trials not run yet are for `--resume`.
  if (state.signal.aborted) return ok;
  await journal.finish('execute');
  return allOk ? ok : failed(EXIT_CODES.trialsFailed);
}

/**
 * Which stages `--resume` runs when none are named: from the first one not
 * done (execute again when trials are left) through teardown, or through
 * execute with `keep`; only publishing when the run was torn down but died publishing.
 */
export function resumeRange(journal: StageJournal, keep: boolean): StageRange {
  // Torn down already: only publishing is left, and nothing is kept whatever `keep` says.
  if (publishPending(journal)) return { from: 'teardown', to: 'teardown' };
  const done = new Set(journal.done);
  const from: Stage = !done.has('provision') ? 'provision' : !done.has('execute') ? 'execute' : 'teardown';
  if (keep && from === 'teardown') throw new NetbenchError(`run ${journal.runId} has executed every trial; nothing to do with --keep (tear it down with --stage teardown)`);
  return { from, to: keep ? 'execute' : 'teardown' };
}
