import { NetbenchError } from '@netbench/plugin-api';
import { deleteResults } from '@netbench/results';
import { Flags } from '@oclif/core';
import { NetbenchCommand } from '../../lib/base-command.js';

export default class ResultsDelete extends NetbenchCommand {
  static override summary = 'Delete runs from the results store (all named runs or none); run folders are kept.';
  static override examples = ['<%= config.bin %> results delete 20261122-110256-k3f9a2', '<%= config.bin %> results delete latest~2 latest~1'];
  static override strict = false;
  static override flags = { db: Flags.string({ summary: 'Results store file (default $NETBENCH_DB, else $NETBENCH_HOME/netbench.db).' }) };

  async run() {
    const { argv, flags } = await this.parse(ResultsDelete);
    const runs = argv.map(String);
    if (runs.length === 0) throw new NetbenchError('name at least one run to delete');
    const result = await deleteResults({ db: flags.db, runs });
    if (!this.jsonEnabled()) for (const id of result.deleted) this.log(`deleted ${id}`);
    return result;
  }
}
