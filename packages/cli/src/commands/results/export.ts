import { writeFile } from 'node:fs/promises';
import { NetbenchError, type RunResults } from '@netbench/plugin-api';
import { formatCsv } from '@netbench/plugin-csv';
import { formatPkbSamples } from '@netbench/plugin-json';
import { exportResults } from '@netbench/results';
import { Flags } from '@oclif/core';
import { NetbenchCommand } from '../../lib/base-command.js';

/** What `--json --out FILE` prints. */
export interface ExportSummary {
  readonly out: string;
  readonly format: keyof typeof FORMATS;
  readonly runs: readonly string[];
  readonly samples: number;
  readonly bytes: number;
}

/** json: the runs as their results.json held them; pkb-json and csv: the json and csv publishers' own formats. */
const FORMATS = {
  json: (runs: readonly RunResults[]) => `${JSON.stringify(runs, null, 2)}\n`,
  'pkb-json': (runs: readonly RunResults[]) => runs.map((r) => formatPkbSamples(r.run, r.samples)).join(''),
  csv: (runs: readonly RunResults[]) => formatCsv(runs.flatMap((r) => r.samples)),
} as const;

export default class ResultsExport extends NetbenchCommand {
  static override summary = 'Write stored runs as JSON (an array of results.json bodies), PKB newline-delimited JSON, or CSV.';
  static override examples = [
    '<%= config.bin %> results export latest > run.json',
    '<%= config.bin %> results export latest~1 latest --format csv --out runs.csv',
    '<%= config.bin %> results export k3f9a2 --format pkb-json',
    '<%= config.bin %> results export latest --format csv --out run.csv --json',
  ];
  static override description =
    'With --json and no --out, the runs are printed as JSON (as --format json). With --json and --out, the file is written in --format and a JSON summary of what was written is printed.';
  static override strict = false;
  static override flags = {
    db: Flags.string({ summary: 'Results store file (default $NETBENCH_DB, else $NETBENCH_HOME/netbench.db).' }),
    format: Flags.option({ options: ['json', 'pkb-json', 'csv'] as const, default: 'json', summary: 'Output format.' })(),
    out: Flags.string({ summary: 'Write to this file instead of stdout.' }),
  };

  async run(): Promise<readonly RunResults[] | ExportSummary | undefined> {
    const { argv, flags } = await this.parse(ResultsExport);
    const refs = argv.map(String).filter((a) => a !== '--json');
    if (refs.length === 0) throw new NetbenchError('name at least one run (id, prefix, latest, …)');
    const json = this.jsonEnabled();
    if (json && !flags.out && flags.format !== 'json')
      throw new NetbenchError(`--json prints the runs as JSON: give --out FILE to write --format ${flags.format} and get a JSON summary`);
    const runs = await exportResults({ db: flags.db, runs: refs });
    if (json && !flags.out) return runs;
    const text = FORMATS[flags.format](runs);
    if (!flags.out) {
      process.stdout.write(text);
      return undefined;
    }
    await writeFile(flags.out, text);
    return { out: flags.out, format: flags.format, runs: runs.map((r) => r.run.runId), samples: runs.reduce((n, r) => n + r.samples.length, 0), bytes: Buffer.byteLength(text) };
  }
}
