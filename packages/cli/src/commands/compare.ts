import { NetbenchError } from '@netbench/plugin-api';
import { writeReport } from '@netbench/report';
import { type ComparisonSelection, compareResults, parseLabelConditions } from '@netbench/results';
import { Args, Flags } from '@oclif/core';
import { NetbenchCommand } from '../lib/base-command.js';
import { formatComparison } from '../lib/format/comparison.js';

export default class Compare extends NetbenchCommand {
  static override summary = 'Compare two stored runs (or two label selections) metric by metric, with significance where there are repetitions.';
  static override description =
    'The first run given is the baseline, the second the candidate; several runs a side (a1,a2,a3) are its replicates. Each run gives one value per row (the median of its samples, or its histograms\' percentile); the tests see only those, so one run a side is "not tested: one run each". Scalars: medians, Mann–Whitney U on the runs (exact for small samples, tie-corrected) — with 2 or 3 values a side, too few for it to reach alpha, Welch\'s t-test on the logarithms (assumes log-normal values) — and a seeded bootstrap interval of the difference of medians. Metrics with histograms: compared at p50/p90/p99, never by the mean. The "decided by" column names the test. See docs/results.md.';
  static override examples = [
    '<%= config.bin %> compare latest~1 latest',
    '<%= config.bin %> compare a1,a2,a3 b1,b2,b3',
    '<%= config.bin %> compare --baseline client_zone=us-west1-a --candidate client_zone=us-west1-b',
    '<%= config.bin %> compare 6y6d69 k3f9a2 --metric TCP_RR_Latency_p50 --json',
    '<%= config.bin %> compare latest~1 latest --out compare.html',
  ];
  static override args = {
    baseline: Args.string({
      required: false,
      description: 'the baseline: the first run given (id, prefix/suffix, latest[~N]); several runs joined by commas (a1,a2,a3) are replicates of it',
    }),
    candidate: Args.string({ required: false, description: 'the candidate: the second run given, or several joined by commas' }),
  };
  static override flags = {
    db: Flags.string({ summary: 'Results store file (default $NETBENCH_DB, else $NETBENCH_HOME/netbench.db).' }),
    baseline: Flags.string({ multiple: true, summary: 'Baseline: every stored sample with this label, key=value (repeatable).' }),
    candidate: Flags.string({ multiple: true, summary: 'Candidate: every stored sample with this label, key=value (repeatable).' }),
    metric: Flags.string({ multiple: true, summary: 'Only this metric (repeatable).' }),
    alpha: Flags.string({ default: '0.05', summary: 'Significance level.' }),
    seed: Flags.integer({ default: 1, summary: 'Bootstrap seed (same data and seed, same intervals).' }),
    resamples: Flags.integer({ default: 2000, min: 100, summary: 'Bootstrap resamples.' }),
    match: Flags.string({ multiple: true, summary: 'A label that tells series apart although ignored by default (e.g. client_zone).' }),
    ignore: Flags.string({ multiple: true, summary: 'A label that does not tell series apart (repeatable).' }),
    out: Flags.string({ char: 'o', summary: "Also write the comparison as a report (.html or .md): every row's verdict first, then the runs of both sides and their charts." }),
  };

  async run() {
    const { args, flags } = await this.parse(Compare);
    const result = await compareResults({
      db: flags.db,
      baseline: side(args.baseline, flags.baseline, '--baseline'),
      candidate: side(args.candidate, flags.candidate, '--candidate'),
      metrics: flags.metric,
      alpha: Number(flags.alpha),
      seed: flags.seed,
      resamples: flags.resamples,
      match: flags.match,
      ignore: flags.ignore,
    });
    if (!this.jsonEnabled()) this.log(formatComparison(result));
    if (flags.out !== undefined) {
      if (!/\.(html?|md|markdown)$/i.test(flags.out)) throw new NetbenchError(`--out ${flags.out}: name a .html or .md file (the verdicts are a table)`);
      const runs = [...new Set([...result.baseline.runs, ...result.candidate.runs])];
      const title = `netbench compare: ${result.baseline.selection} (baseline) → ${result.candidate.selection} (candidate)`;
      const report = await writeReport({ runs, out: flags.out, db: result.db, comparison: result, title });
      if (!this.jsonEnabled()) this.log(`wrote ${report.files[0]}`);
    }
    return result;
  }
}

function side(run: string | undefined, labels: string[] | undefined, flag: string): ComparisonSelection {
  if (run !== undefined && labels !== undefined) throw new NetbenchError(`give the ${flag.slice(2)} as a run or as ${flag} labels, not both`);
  if (run !== undefined)
    return {
      runs: run
        .split(',')
        .map((r) => r.trim())
        .filter((r) => r !== ''),
    };
  if (labels !== undefined) return { labels: parseLabelConditions(labels, flag) };
  throw new NetbenchError(`name the ${flag.slice(2)}: a run (netbench compare RUN_A RUN_B) or ${flag} key=value`);
}
