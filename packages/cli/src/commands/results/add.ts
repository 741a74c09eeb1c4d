import { NetbenchError } from '@netbench/plugin-api';
import { addResults } from '@netbench/results';
import { Flags } from '@oclif/core';
import { NetbenchCommand } from '../../lib/base-command.js';

export default class ResultsAdd extends NetbenchCommand {
  static override summary = 'Store runs from their run folders (results.json), e.g. one the store missed or one from another machine.';
  static override examples = ['<%= config.bin %> results add ~/.netbench/runs/20261122-110256-k3f9a2', '<%= config.bin %> results add other/results.json --db team.db'];
  static override strict = false;
  static override flags = { db: Flags.string({ summary: 'Results store file (default $NETBENCH_DB, else $NETBENCH_HOME/netbench.db).' }) };

  async run() {
    const { argv, flags } = await this.parse(ResultsAdd);
    const paths = argv.map(String);
    if (paths.length === 0) throw new NetbenchError('name at least one run folder or results.json');
    const result = await addResults({ db: flags.db, paths });
    if (!this.jsonEnabled()) for (const r of result.added) this.log(`${r.replaced ? 'replaced' : 'stored'} ${r.runId} (${r.samples} samples) in ${result.db}`);
    return result;
  }
}
