import { REPORT_FORMATS, type ReportFormat, writeReport } from '@netbench/report';
import type { ChartKind } from '@netbench/results';
import { Args, Flags } from '@oclif/core';
import { NetbenchCommand } from '../lib/base-command.js';

const KINDS: readonly ChartKind[] = ['heatmap', 'bar', 'sweep', 'cdf', 'histogram', 'timeseries', 'box'];

export default class Report extends NetbenchCommand {
  static override summary = 'Charts and summary tables of one or more runs: HTML, Markdown, SVG or PNG.';
  static override description = [
    'Charts are chosen from what the runs contain: zone/region heatmaps, bars with 95% confidence intervals (comparisons, repetitions), sweep lines, latency CDFs and histograms, per-interval time series.',
    'html: one self-contained file. md: the file plus its charts as SVG in <name>-charts/. svg/png: --out a folder gets one file per chart; --out ending in .svg/.png gets the first chart only.',
  ].join('\n');
  static override examples = [
    '<%= config.bin %> report 20261122-110256-k3f9a2 --out report.html',
    '<%= config.bin %> report runA runB --format md --out compare.md',
    '<%= config.bin %> report ~/.netbench/runs/20261122-110256-k3f9a2 --format png --out charts/',
    '<%= config.bin %> report --study nightly-117 --out study.html',
  ];
  static override strict = false;
  static override args = { runs: Args.string({ required: false, description: 'run ids (or their unique end), run folders, results.json files, `latest`; several compare' }) };
  static override flags = {
    out: Flags.string({ char: 'o', summary: 'Output file (html, md, one svg/png) or folder (svg/png). Default report.html, report.md or report-charts/.' }),
    format: Flags.option({ options: REPORT_FORMATS, summary: "Default: from --out's extension, else html." })(),
    kind: Flags.option({ options: KINDS, multiple: true, summary: 'Only these chart kinds.' })(),
    metric: Flags.string({ multiple: true, summary: 'Only chart these metrics (exact names).' }),
    title: Flags.string({ summary: 'Report title.' }),
    'runs-dir': Flags.string({ summary: 'Parent folder of run folders (default ~/.netbench/runs).' }),
    db: Flags.string({ summary: 'Results store for runs without a folder, e.g. imported ones (default ~/.netbench/netbench.db).' }),
    study: Flags.string({ summary: 'Chart a study (the shards of one plan, label study=ID) as one run.' }),
  };

  async run() {
    const { argv, flags } = await this.parse(Report);
    const result = await writeReport({
      runs: argv as string[],
      out: flags.out,
      format: flags.format as ReportFormat | undefined,
      runsDir: flags['runs-dir'],
      db: flags.db,
      kinds: flags.kind,
      metrics: flags.metric,
      title: flags.title,
      ...(flags.study !== undefined ? { study: flags.study } : {}),
    });
    if (!this.jsonEnabled()) {
      this.log(
        `${result.format} report of ${result.runIds.join(', ')}: ${result.charts.length} chart${result.charts.length === 1 ? '' : 's'} (${result.charts.map((c) => c.kind).join(', ') || 'none'})`,
      );
      for (const file of result.files) this.log(`  ${file}`);
      if (result.omitted > 0) process.stderr.write(`only the first chart was written; ${result.omitted} more: give --out a folder for all of them\n`);
    }
    return result;
  }
}
