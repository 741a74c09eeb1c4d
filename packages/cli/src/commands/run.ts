import { Args, Flags } from '@oclif/core';
import { parseShard, parseStageRange, resumeRun, runSpec } from '@netbench/core/run';
import { runStore } from '@netbench/results/run-store';
import { NetbenchError, type NetbenchEvent } from '@netbench/plugin-api';
import { NetbenchCommand } from '../lib/base-command.js';
import { cliRegistry } from '../lib/registry.js';
import { interruptSignal } from '../lib/interrupt.js';
import { progressDisplay } from '../lib/progress/progress-display.js';
import { formatSummary } from '../lib/format/summary.js';
import { parseUsd } from '../lib/parse-usd.js';

export default class Run extends NetbenchCommand {
  static override summary = 'Run a spec: provision hosts, measure, tear everything down, publish every sample.';
  static override description = `Exit codes: 0 success · 2 spec invalid · 3 some trials failed · 4 teardown failed · 5 provisioning or preparing failed · 6 estimated cost above --max-cost (nothing created) · 130 interrupted (torn down, partial results kept).
Long studies (docs/long-studies.md): --stage runs some stages and keeps the hosts for the next invocation (--resume RUN --stage …); --resume RUN continues a run whose process died; --shard i/N runs one shard of the plan (i from 0).`;
  static override examples = [
    '<%= config.bin %> run examples/quickstart.yaml',
    '<%= config.bin %> run spec.yaml --set options.concurrency=2 --set benchmarks.0.duration=5',
    '<%= config.bin %> run spec.yaml --stage provision',
    '<%= config.bin %> run --resume 20261125-043000-k3f9a2 --stage execute',
    '<%= config.bin %> run --resume 20261125-043000-k3f9a2',
    '<%= config.bin %> run spec.yaml --shard 0/4 --study nightly-117',
  ];
  static override args = { spec: Args.string({ required: false, description: 'spec file (YAML); with --resume, the run\'s own spec is used' }) };
  static override flags = {
    set: Flags.string({ multiple: true, summary: 'Override a spec field: path=value (repeatable).' }),
    'runs-dir': Flags.string({ summary: 'Parent folder of run folders (default ~/.netbench/runs).' }),
    db: Flags.string({ summary: 'Results store the run is stored in (default $NETBENCH_DB, else $NETBENCH_HOME/netbench.db).' }),
    'max-cost': Flags.string({ summary: 'Refuse to start (exit 6, nothing created) when the estimated cost is above this many USD.' }),
    progress: Flags.option({ options: ['auto', 'tty', 'plain', 'none'] as const, default: 'auto', summary: 'Progress display on stderr.' })(),
    stage: Flags.string({ summary: 'Only these stages: provision|prepare|execute|teardown or a range (provision-prepare); hosts are kept for the next one.' }),
    keep: Flags.boolean({ summary: 'Keep the hosts after execute (tear down later with --resume RUN --stage teardown).' }),
    resume: Flags.string({ summary: 'Continue run RUN (id or folder): finished trials are kept, cut-off ones run again, kept hosts are verified and reused.' }),
    shard: Flags.string({ summary: 'Run shard i of N of the plan (i/N, i from 0: a Kubernetes completion index).' }),
    study: Flags.string({ summary: 'Study id the shards share (the `study` label; default from the spec).' }),
  };

  async run() {
    const { args, flags } = await this.parse(Run);
    if (!args.spec && !flags.resume) throw new NetbenchError('give a spec file, or --resume RUN to continue a run');
    if (flags.resume && (flags.set || flags.shard || flags.study || flags['max-cost'])) throw new NetbenchError('--resume continues a run as it was planned: --set, --shard, --study and --max-cost belong to its first invocation');
    const display = progressDisplay(this.jsonEnabled() && flags.progress === 'auto' ? 'none' : flags.progress);
    const interrupt = interruptSignal((count, signal) => {
      process.stderr.write(count === 1
        ? `\n${signal}: stopping trials, tearing down and keeping the results so far (press twice more to exit at once)\n`
        : `\n${signal}: still tearing down; one more to exit without teardown (then run \`netbench cleanup\`)\n`);
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
        netbenchVersion: this.config.version,
        keep: flags.keep,
        ...(flags.stage !== undefined ? { stages: parseStageRange(flags.stage) } : {}),
      };
      const outcome = flags.resume
        ? await resumeRun({ ...common, run: flags.resume, ...(args.spec ? { file: args.spec } : {}) })
        : await runSpec({
          ...common,
          file: args.spec!,
          sets: flags.set,
          ...(flags.shard !== undefined ? { shard: parseShard(flags.shard) } : {}),
          ...(flags.study !== undefined ? { study: flags.study } : {}),
          ...(flags['max-cost'] !== undefined ? { maxCostUsd: parseUsd(flags['max-cost']) } : {}),
        });
      display.stop();
      const { record, samples } = outcome;
      if (!this.jsonEnabled()) {
        if (record.trials.length > 0) this.log(formatSummary(record, samples));
        this.log(`\nrun ${record.runId} ${record.status} · ${samples.length} samples · ${record.runDir}/results.json`);
        // Without a progress display nothing else says why a phase failed.
        if (flags.progress === 'none') for (const error of record.errors) process.stderr.write(`error: ${error}\n`);
        if (outcome.kept) this.log(`hosts kept: continue with \`netbench run --resume ${record.runId}\` (or --stage teardown)`);
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
}
