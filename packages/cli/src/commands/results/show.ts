import { showResult } from '@netbench/results';
import { Args, Flags } from '@oclif/core';
import { NetbenchCommand } from '../../lib/base-command.js';
import { formatRunShow } from '../../lib/format/results.js';

export default class ResultsShow extends NetbenchCommand {
  static override summary = 'Summarise a stored run: one line per trial with its throughput or rate, latency p50/p90/p99/p99.9 and loss; --metrics for every metric.';
  static override description = 'RUN is a run id, a unique prefix or suffix of one (the 6-character tag is enough), latest, latest~N, or a run folder.';
  static override examples = ['<%= config.bin %> results show latest', '<%= config.bin %> results show k3f9a2 --json'];
  static override args = { run: Args.string({ required: true, description: 'run id, prefix/suffix, latest[~N] or run folder' }) };
  static override flags = {
    db: Flags.string({ summary: 'Results store file (default $NETBENCH_DB, else $NETBENCH_HOME/netbench.db).' }),
    metrics: Flags.boolean({ summary: 'One line per trial and metric (value, n, and p50/p90/p99/p99.9 where a histogram exists).' }),
  };

  async run() {
    const { args, flags } = await this.parse(ResultsShow);
    const show = await showResult({ db: flags.db, run: args.run });
    if (!this.jsonEnabled()) this.log(formatRunShow(show, { metrics: flags.metrics }));
    return show;
  }
}
