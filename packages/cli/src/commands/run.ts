import { Args, Flags } from '@oclif/core';
import { runSpec } from '@netbench/core/run';
import { runStore } from '@netbench/results/run-store';
import { NetbenchCommand } from '../lib/base-command.js';
import { cliRegistry } from '../lib/registry.js';
import { interruptSignal } from '../lib/interrupt.js';
import { progressDisplay } from '../lib/progress/progress-display.js';
import { formatSummary } from '../lib/format/summary.js';
import { parseUsd } from '../lib/parse-usd.js';

export default class Run extends NetbenchCommand {
  static override summary = 'Run a spec: provision hosts, measure, tear everything down, publish every sample.';
  static override description = `Exit codes: 0 success · 2 spec invalid · 3 some trials failed · 4 teardown failed · 5 provisioning or preparing failed · 6 estimated cost above --max-cost (nothing created) · 130 interrupted (torn down, partial results kept).`;
  static override examples = [
    '<%= config.bin %> run examples/quickstart.yaml',
    '<%= config.bin %> run spec.yaml --set options.concurrency=2 --set benchmarks.0.duration=5',
  ];
  static override args = { spec: Args.string({ required: true, description: 'spec file (YAML)' }) };
  static override flags = {
    set: Flags.string({ multiple: true, summary: 'Override a spec field: path=value (repeatable).' }),
    'runs-dir': Flags.string({ summary: 'Parent folder of run folders (default ~/.netbench/runs).' }),
    db: Flags.string({ summary: 'Results store the run is stored in (default $NETBENCH_DB, else $NETBENCH_HOME/netbench.db).' }),
    'max-cost': Flags.string({ summary: 'Refuse to start (exit 6, nothing created) when the estimated cost is above this many USD.' }),
    progress: Flags.option({ options: ['auto', 'tty', 'plain', 'none'] as const, default: 'auto', summary: 'Progress display on stderr.' })(),
  };

  async run() {
    const { args, flags } = await this.parse(Run);
    const display = progressDisplay(this.jsonEnabled() && flags.progress === 'auto' ? 'none' : flags.progress);
    const interrupt = interruptSignal((count, signal) => {
      process.stderr.write(count === 1
        ? `\n${signal}: stopping trials, tearing down and keeping the results so far (press twice more to exit at once)\n`
        : `\n${signal}: still tearing down; one more to exit without teardown (then run \`netbench cleanup\`)\n`);
    });
    display.start();
    try {
      const outcome = await runSpec({
        file: args.spec,
        sets: flags.set,
        registry: cliRegistry(),
        runsDir: flags['runs-dir'],
        ...(flags['max-cost'] !== undefined ? { maxCostUsd: parseUsd(flags['max-cost']) } : {}),
        store: runStore(flags.db),
        signal: interrupt.signal,
        onEvent: display.handle,
        onWarning: (message) => process.stderr.write(`warning: ${message}\n`),
        netbenchVersion: this.config.version,
      });
      display.stop();
      const { record, samples } = outcome;
      if (!this.jsonEnabled()) {
        if (record.trials.length > 0) this.log(formatSummary(record, samples));
        this.log(`\nrun ${record.runId} ${record.status} · ${samples.length} samples · ${record.runDir}/results.json`);
      }
      process.exitCode = outcome.exitCode;
      return {
        runId: record.runId,
        status: record.status,
        exitCode: outcome.exitCode,
        runDir: record.runDir,
        trials: record.trials.map(({ id, tool, test, status, error, sampleCount }) => ({ id, tool, test, status, error, sampleCount })),
        samples: samples.length,
        errors: record.errors,
      };
    } finally {
      display.stop();
      interrupt.dispose();
    }
  }
}
