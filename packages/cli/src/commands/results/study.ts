import { studyResults } from '@netbench/results';
import { Args, Flags } from '@oclif/core';
import { NetbenchCommand } from '../../lib/base-command.js';

export default class ResultsStudy extends NetbenchCommand {
  static override summary = 'A study: the stored runs of its shards (label study=ID) read as one — which shards are in, and the trials they make together.';
  static override description =
    'Shards made by `netbench plan --shards` or `netbench run --shard i/N` carry the labels study and shard. Compare or chart a study with `netbench compare --baseline study=A --candidate study=B` and `netbench report --study ID`.';
  static override examples = ['<%= config.bin %> results study nightly-117', '<%= config.bin %> results study nightly-117 --json'];
  static override args = { study: Args.string({ required: true, description: 'study id' }) };
  static override flags = { db: Flags.string({ summary: 'Results store file (default $NETBENCH_DB, else $NETBENCH_HOME/netbench.db).' }) };

  async run() {
    const { args, flags } = await this.parse(ResultsStudy);
    const study = await studyResults({ study: args.study, db: flags.db });
    if (!this.jsonEnabled()) {
      for (const run of study.runs)
        this.log(`${run.shard ? `shard ${run.shard.padEnd(7)}` : 'whole plan   '} ${run.runId}  ${run.status.padEnd(11)} ${run.trials} trials · ${run.samples} samples`);
      const missing = study.shards.missing.length > 0 ? ` · shards not stored yet: ${study.shards.missing.join(', ')}` : '';
      this.log(
        `\nstudy ${study.study}: ${study.runs.length} runs · ${study.trials} distinct trials · ${study.samples} samples${missing}${study.repeated.length > 0 ? ` · trials stored more than once: ${study.repeated.join(', ')}` : ''} · ${study.db}`,
      );
    }
    return study;
  }
}
