import { Args, Flags } from '@oclif/core';
import { NetbenchCommand } from '../lib/base-command.js';
import { runCommand } from '../lib/run-command.js';

// `bin/run.js` runs this command through `fast-run.ts` (no oclif start-up)
// unless its arguments need oclif; both call `runCommand`, and
// `fast-run.test.ts` keeps the flags here and there the same.
export default class Run extends NetbenchCommand {
  static override summary = 'Run a spec: provision hosts, measure, tear everything down, publish every sample.';
  static override description =
    `Exit codes: 0 success · 2 spec invalid · 3 some trials failed · 4 teardown failed · 5 provisioning or preparing failed · 6 estimated cost above --max-cost (nothing created) · 130 interrupted (torn down, partial results kept).
Long studies (docs/long-studies.md): --stage runs some stages and keeps the hosts for the next invocation (--resume RUN --stage …); --resume RUN continues a run whose process died; --shard i/N runs one shard of the plan (i from 0).`;
  static override examples = [
    '<%= config.bin %> run examples/quickstart.yaml',
    '<%= config.bin %> run spec.yaml --set options.concurrency=2 --set benchmarks.0.duration=5',
    '<%= config.bin %> run spec.yaml --stage provision',
    '<%= config.bin %> run --resume 20261125-043000-k3f9a2 --stage execute',
    '<%= config.bin %> run --resume 20261125-043000-k3f9a2',
    '<%= config.bin %> run spec.yaml --shard 0/4 --study nightly-117',
  ];
  static override args = { spec: Args.string({ required: false, description: "spec file (YAML); with --resume, the run's own spec is used" }) };
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
    return runCommand(args.spec, flags, { log: (line) => this.log(line), json: this.jsonEnabled(), version: this.config.version });
  }
}
