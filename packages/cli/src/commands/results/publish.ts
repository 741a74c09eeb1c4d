import { parseSettings, publishStoredRun } from '@netbench/results';
import { Args, Flags } from '@oclif/core';
import { NetbenchCommand } from '../../lib/base-command.js';
import { cliRegistry } from '../../lib/registry.js';

export default class ResultsPublish extends NetbenchCommand {
  static override summary = 'Send a stored run through a publisher again (postgres, json, csv, …).';
  static override description =
    "Settings default to the run's own publish[] entry of that type in its spec; --setting overrides fields (dotted keys nest, e.g. ssl.mode=require). Exit code 1 when the publisher fails; the store is only read.";
  static override examples = [
    '<%= config.bin %> results publish latest --to postgres --setting url=postgres://netbench@db.internal/netbench',
    '<%= config.bin %> results publish k3f9a2 --to json --setting file=out.jsonl',
  ];
  static override args = { run: Args.string({ required: true, description: 'run id, prefix/suffix, latest[~N] or run folder' }) };
  static override flags = {
    db: Flags.string({ summary: 'Results store file (default $NETBENCH_DB, else $NETBENCH_HOME/netbench.db).' }),
    to: Flags.string({ required: true, summary: 'Publisher plugin name.' }),
    setting: Flags.string({ multiple: true, summary: 'Publisher setting key=value (repeatable).' }),
  };

  async run() {
    const { args, flags } = await this.parse(ResultsPublish);
    const result = await publishStoredRun({
      db: flags.db,
      run: args.run,
      publisher: flags.to,
      settings: parseSettings(flags.setting),
      registry: cliRegistry(),
      onWarning: (message) => process.stderr.write(`warning: ${message}\n`),
    });
    if (!this.jsonEnabled()) this.log(`published ${result.count} samples of ${result.runId} via ${result.publisher}${result.location ? ` to ${result.location}` : ''}`);
    return result;
  }
}
