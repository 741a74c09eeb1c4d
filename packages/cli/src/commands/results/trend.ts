import { parseLabelConditions, REGRESSION_EXIT_CODE, resultsTrend } from '@netbench/results';
import { Flags } from '@oclif/core';
import { NetbenchCommand } from '../../lib/base-command.js';
import { formatTrend } from '../../lib/format/trend.js';

export default class ResultsTrend extends NetbenchCommand {
  static override summary = 'One metric over time, one point per run, with a change/regression flag; --fail-on-regression for CI.';
  static override description =
    `Each run's value (median of its samples of the series) is judged against the median and MAD of the runs before it (robust z-score; |z| > threshold is a change, a regression when it is the worse way). With --fail-on-regression PCT the command exits ${REGRESSION_EXIT_CODE} when the newest run is a regression of at least PCT percent.`;
  static override examples = [
    '<%= config.bin %> results trend --metric TCP_RR_Latency_p50 --where test=TCP_RR',
    '<%= config.bin %> results trend --metric "Latency p99" --where direction=forward --fail-on-regression 10',
  ];
  static override flags = {
    db: Flags.string({ summary: 'Results store file (default $NETBENCH_DB, else $NETBENCH_HOME/netbench.db).' }),
    metric: Flags.string({ required: true, summary: 'Metric name (as in results show).' }),
    where: Flags.string({ multiple: true, summary: 'Only samples with this label: key=value (repeatable).' }),
    window: Flags.integer({ default: 10, min: 1, summary: 'Previous runs each run is judged against.' }),
    'min-history': Flags.integer({ default: 4, min: 1, summary: 'No verdict with fewer previous runs.' }),
    threshold: Flags.string({ default: '3.5', summary: 'Robust z-score beyond which a run is a change.' }),
    direction: Flags.option({ options: ['lower', 'higher'] as const, summary: 'Which way is better (default: from the unit and name).' })(),
    'fail-on-regression': Flags.string({ summary: `Exit ${REGRESSION_EXIT_CODE} when the newest run regressed by at least this many percent.` }),
    match: Flags.string({ multiple: true, summary: 'A label that tells series apart although ignored by default (e.g. client_zone).' }),
    ignore: Flags.string({ multiple: true, summary: 'A label that does not tell series apart (repeatable), as in compare.' }),
  };

  async run() {
    const { flags } = await this.parse(ResultsTrend);
    const trend = await resultsTrend({
      db: flags.db,
      metric: flags.metric,
      where: parseLabelConditions(flags.where, '--where'),
      window: flags.window,
      minHistory: flags['min-history'],
      threshold: Number(flags.threshold),
      direction: flags.direction,
      failOnRegressionPct: flags['fail-on-regression'] === undefined ? undefined : Number(flags['fail-on-regression']),
      match: flags.match,
      ignore: flags.ignore,
    });
    if (!this.jsonEnabled()) this.log(formatTrend(trend));
    if (trend.failed) process.exitCode = REGRESSION_EXIT_CODE;
    return trend;
  }
}
