// A `TrialContext` for testing a tool plugin's `run` outside the engine: raw
// outputs land in a fresh temp folder (as they would in the run folder),
// progress and warnings are recorded for assertions, and the test holds the
// abort controller. Once copied into every tool plugin's tests; now here.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TrialContext } from '../plugin/tool.js';
import { rawFileName } from '../run/raw-file-name.js';
import { RUN_FILES } from '../run/run-files.js';
import type { SampleInput } from '../samples/types.js';

export interface TrialProgress {
  readonly fraction: number;
  readonly message?: string;
}

/** A `TrialContext` and what the plugin did with it. */
export interface TestTrialContext {
  readonly ctx: TrialContext;
  /** Aborts `ctx.signal`, as Ctrl-C or a failing run would; pass the reason to `abort(reason)`. */
  readonly controller: AbortController;
  /** Raw outputs saved with `ctx.saveRaw`: the name given -> the file, named as the engine names it (`raw/<trial>-<name>`), in the order first saved. */
  readonly saved: ReadonlyMap<string, string>;
  /** Every `ctx.progress(fraction, message)` call, in order. */
  readonly progress: readonly TrialProgress[];
  /** Every live value given to `ctx.interval`, in order, with `Date.now()` when it came. */
  readonly intervals: readonly { readonly sample: SampleInput; readonly at: number }[];
  /** Every `ctx.log.warn` message, in order (debug and info are dropped). */
  readonly warnings: readonly string[];
  /** Remove the temp run folder and what was saved in it. Idempotent. */
  dispose(): void;
}

/**
 * A fresh context for one trial. `timeoutMs` (default 30 s) is only passed
 * on: unlike the engine, the kit does not abort `ctx.signal` at the deadline,
 * so a test sees the plugin's own timeout handling. Call `dispose()` in a
 * `finally`.
 */
export function testTrialContext(timeoutMs = 30_000, trialId = 't0001', specDir: string = process.cwd()): TestTrialContext {
  const runDir = mkdtempSync(join(tmpdir(), 'nbt-tooltest-'));
  const controller = new AbortController();
  const saved = new Map<string, string>();
  const progress: TrialProgress[] = [];
  const warnings: string[] = [];
  const intervals: { sample: SampleInput; at: number }[] = [];
  const ctx: TrialContext = {
    runId: 'test-run',
    runDir,
    specDir,
    signal: controller.signal,
    log: { debug() {}, info() {}, warn: (message) => void warnings.push(message) },
    timeoutMs,
    async saveRaw(name, content) {
      mkdirSync(join(runDir, RUN_FILES.raw), { recursive: true });
      const path = join(runDir, RUN_FILES.raw, rawFileName(trialId, name));
      writeFileSync(path, content);
      saved.set(name, path);
      return path;
    },
    progress: (fraction, message) => void progress.push(message === undefined ? { fraction } : { fraction, message }),
    interval: (sample) => void intervals.push({ sample, at: Date.now() }),
  };
  return { ctx, controller, saved, progress, intervals, warnings, dispose: () => rmSync(runDir, { recursive: true, force: true }) };
}
