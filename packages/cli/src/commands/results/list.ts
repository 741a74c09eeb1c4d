import { listResults, parseLabelConditions, parseTimeBound } from '@netbench/results';
import { Flags } from '@oclif/core';
import { NetbenchCommand } from '../../lib/base-command.js';
import { formatRunList } from '../../lib/format/results.js';

export default class ResultsList extends NetbenchCommand {
  static override summary = 'List the runs in the results store, newest first.';
  static override description =
    'Every run is stored in $NETBENCH_HOME/netbench.db (or --db / NETBENCH_DB) when it finishes. Filters combine with AND; --label matches a label of the run or of any of its samples.';
  static override examples = [
    '<%= config.bin %> results list',
    '<%= config.bin %> results list --spec quickstart --tool netperf --since 7d',
    '<%= config.bin %> results list --label client_zone=us-west1-a --json',
  ];
  static override flags = {
    db: Flags.string({ summary: 'Results store file (default $NETBENCH_DB, else $NETBENCH_HOME/netbench.db).' }),
    spec: Flags.string({ summary: 'Only runs of this spec (its name).' }),
    tool: Flags.string({ summary: 'Only runs with a trial of this tool.' }),
    label: Flags.string({ multiple: true, summary: 'Only runs with this label: key=value (repeatable).' }),
    since: Flags.string({ summary: 'Started at or after: a date (2026-11-01) or an age (12h, 7d).' }),
    until: Flags.string({ summary: 'Started before: a date or an age.' }),
    limit: Flags.integer({ default: 20, min: 0, summary: 'At most this many runs (0: all).' }),
  };

  async run() {
    const { flags } = await this.parse(ResultsList);
    const list = await listResults({
      db: flags.db,
      spec: flags.spec,
      tool: flags.tool,
      labels: parseLabelConditions(flags.label),
      since: flags.since === undefined ? undefined : parseTimeBound(flags.since, '--since'),
      until: flags.until === undefined ? undefined : parseTimeBound(flags.until, '--until'),
      limit: flags.limit,
    });
    if (!this.jsonEnabled()) {
      if (list.runs.length === 0) this.log(`no runs match (store ${list.db})`);
      else this.log(`${formatRunList(list.runs)}\n\n${list.runs.length} of ${list.total} runs${list.runs.length < list.total ? ' (--limit 0 for all)' : ''} · ${list.db}`);
    }
    return list;
  }
}
