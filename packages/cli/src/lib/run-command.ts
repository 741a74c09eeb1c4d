import { parseShard, parseStageRange, resumeRun, runSpec } from '@netbench/core/run';
import { NetbenchError, type NetbenchEvent } from '@netbench/plugin-api';
import { runStore } from '@netbench/results/run-store';
import { formatSummary } from './format/summary.js';
import { interruptSignal } from './interrupt.js';
import { parseUsd } from './parse-usd.js';
import { progressDisplay } from './progress/progress-display.js';
import { cliRegistry } from './registry.js';

/** `netbench run`'s flags once parsed, by oclif (`commands/run.ts`) or by the fast path (`fast-run.ts`). */
export interface RunFlags {
  readonly set?: string[];
  readonly 'runs-dir'?: string;
  readonly db?: string;
  readonly 'max-cost'?: string;
  readonly progress: 'auto' | 'tty' | 'plain' | 'none';
  readonly stage?: string;
  readonly keep?: boolean;
  readonly resume?: string;
  readonly shard?: string;
  readonly study?: string;
}

/** What the command needs of its host: where lines go, whether `--json` is on, the CLI's version. */
export interface RunIo {
  readonly log: (line: string) => void;
  readonly json: boolean;
  readonly version: string;
}

/** The `--json` output of `netbench run`. */
export interface RunResult {
  runId: string;
  status: string;
  exitCode: number;
  runDir: string;
  trials: { id: string; tool: string; test: string; status: string; error?: string; sampleCount: number }[];
  samples: number;
  kept: boolean;
  errors: readonly unknown[];
  /** Every warning, the spec's and the run's. */
  warnings: string[];
}

/**
 * The body of `netbench run`, shared by the oclif command and the fast path
 * that skips oclif's start-up, so both behave the same. Sets
 * `process.exitCode` to the run's exit code.
 */
export async function runCommand(spec: string | undefined, flags: RunFlags, io: RunIo): Promise<RunResult> {
  if (!spec && !flags.resume) throw new NetbenchError('give a spec file, or --resume RUN to continue a run');
  if (flags.resume && (flags.set || flags.shard || flags.study || flags['max-cost']))
    throw new NetbenchError('--resume continues a run as it was planned: --set, --shard, --study and --max-cost belong to its first invocation');
  const display = progressDisplay(io.json && flags.progress === 'auto' ? 'none' : flags.progress);
  const interrupt = interruptSignal((count, signal) => {
    process.stderr.write(
      count === 1
        ? `\n${signal}: stopping trials, tearing down and keeping the results so far (press twice more to exit at once)\n`
        : `\n${signal}: still tearing down; one more to exit without teardown (then run \`netbench cleanup\`)\n`,
    );
  });
  // Every warning, the spec's and the run's, is also in the --json result.
  const warnings: string[] = [];
  display.start();
  try {
    const common = {
      registry: cliRegistry(),
      runsDir: flags['runs-dir'],
      store: runStore(flags.db),
      signal: interrupt.signal,
      onEvent: (event: NetbenchEvent) => {
        if (event.type === 'warning') warnings.push(event.message);
        display.handle(event);
      },
      onWarning: (message: string) => {
        warnings.push(message);
        process.stderr.write(`warning: ${message}\n`);
      },
      netbenchVersion: io.version,
      keep: flags.keep,
      ...(flags.stage !== undefined ? { stages: parseStageRange(flags.stage) } : {}),
    };
    const outcome = flags.resume
      ? await resumeRun({ ...common, run: flags.resume, ...(spec ? { file: spec } : {}) })
      : await runSpec({
          ...common,
          file: spec!,
          sets: flags.set,
          ...(flags.shard !== undefined ? { shard: parseShard(flags.shard) } : {}),
          ...(flags.study !== undefined ? { study: flags.study } : {}),
          ...(flags['max-cost'] !== undefined ? { maxCostUsd: parseUsd(flags['max-cost']) } : {}),
        });
    display.stop();
    const { record, samples } = outcome;
    if (!io.json) {
      if (record.trials.length > 0) io.log(formatSummary(record, samples));
      io.log(`\nrun ${record.runId} ${record.status} · ${samples.length} samples · ${record.runDir}/results.json`);
      // Without a progress display nothing else says why a phase failed.
      if (flags.progress === 'none') for (const error of record.errors) process.stderr.write(`error: ${error}\n`);
      if (outcome.kept) io.log(`hosts kept: continue with \`netbench run --resume ${record.runId}\` (or --stage teardown)`);
    }
    process.exitCode = outcome.exitCode;
    return {
      runId: record.runId,
      status: record.status,
      exitCode: outcome.exitCode,
      runDir: record.runDir,
      trials: record.trials.map(({ id, tool, test, status, error, sampleCount }) => ({ id, tool, test, status, error, sampleCount })),
      samples: samples.length,
      kept: outcome.kept === true,
      errors: record.errors,
      warnings,
    };
  } finally {
    display.stop();
    interrupt.dispose();
  }
}
