import { NetbenchError } from '@netbench/plugin-api';
import { CHECK_FAILED_EXIT_CODE, checkRun, DEFAULT_CHECK_METRICS } from '@netbench/results';
import { Args, Flags } from '@oclif/core';
import { NetbenchCommand } from '../lib/base-command.js';
import { formatPathCheck } from '../lib/format/path-check.js';

export default class Check extends NetbenchCommand {
  static override summary = 'Pass/fail: is each candidate path within a tolerance of a baseline path, in one stored run?';
  static override description =
    `k8s-netperf's check, for any paths told apart by a label: every series of a candidate (same metric, test and parameters) is compared with the baseline's by medians; when one is worse by more than the tolerance the command exits ${CHECK_FAILED_EXIT_CODE}. Default metrics: ${DEFAULT_CHECK_METRICS.join(', ')} (iperf3, netperf TCP_STREAM). See docs/kubernetes.md.`;
  static override examples = [
    '<%= config.bin %> check latest --by benchmark --baseline host-network --candidate pod-other-node --tolerance 10%',
    '<%= config.bin %> check k3f9a2 --by benchmark --baseline host-network --candidate pod-same-node --candidate hairpin --ignore transport_mss --json',
  ];
  static override args = { run: Args.string({ required: true, description: 'stored run (id, prefix/suffix, latest[~N])' }) };
  static override flags = {
    db: Flags.string({ summary: 'Results store file (default $NETBENCH_DB, else $NETBENCH_HOME/netbench.db).' }),
    by: Flags.string({ default: 'benchmark', summary: 'The label whose values name the paths.' }),
    baseline: Flags.string({ required: true, summary: 'The reference path (a value of --by), e.g. host-network.' }),
    candidate: Flags.string({ required: true, multiple: true, summary: 'A path checked against the baseline (repeatable).' }),
    tolerance: Flags.string({ default: '10%', summary: 'How far (percent) a candidate may fall short of the baseline and still pass.' }),
    metric: Flags.string({ multiple: true, summary: `Metric to check (repeatable; default ${DEFAULT_CHECK_METRICS.join(', ')}).` }),
    ignore: Flags.string({ multiple: true, summary: 'A label that does not tell series apart (repeatable), e.g. transport_mss.' }),
  };

  async run() {
    const { args, flags } = await this.parse(Check);
    const tolerancePct = Number(flags.tolerance.replace(/%$/, ''));
    if (!Number.isFinite(tolerancePct)) throw new NetbenchError(`--tolerance: expected a percentage such as 10%, not ${flags.tolerance}`);
    const check = await checkRun({
      db: flags.db,
      run: args.run,
      by: flags.by,
      baseline: flags.baseline,
      candidates: flags.candidate,
      tolerancePct,
      ...(flags.metric ? { metrics: flags.metric } : {}),
      ...(flags.ignore ? { ignore: flags.ignore } : {}),
    });
    if (!this.jsonEnabled()) this.log(formatPathCheck(check));
    if (!check.passed) process.exitCode = CHECK_FAILED_EXIT_CODE;
    return check;
  }
}
