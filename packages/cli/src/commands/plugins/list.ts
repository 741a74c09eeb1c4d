import { listPlugins } from '@netbench/core';
import { Flags } from '@oclif/core';
import { NetbenchCommand } from '../../lib/base-command.js';
import { formatTable } from '../../lib/format/table.js';
import { cliSearchDirs } from '../../lib/registry.js';

export default class PluginsList extends NetbenchCommand {
  static override summary = "List the plugins netbench loads: built-in, added with `plugins add`, and declared in this project's package.json; where each came from.";
  static override examples = ['<%= config.bin %> plugins list', '<%= config.bin %> plugins list --kind tool --json'];
  static override flags = { kind: Flags.option({ options: ['cloud', 'tool', 'publisher'] as const, summary: 'Only this kind.' })() };

  async run() {
    const { flags } = await this.parse(PluginsList);
    const list = listPlugins({ searchDirs: cliSearchDirs(), ...(flags.kind ? { kind: flags.kind } : {}) });
    if (!this.jsonEnabled()) {
      this.log(
        formatTable(list.plugins, [
          { header: 'KIND', value: (p) => p.kind },
          { header: 'NAME', value: (p) => p.name },
          { header: 'VERSION', value: (p) => p.version },
          { header: 'PACKAGE', value: (p) => p.packageName },
          { header: 'SOURCE', value: (p) => p.source },
          { header: 'WHERE', value: (p) => p.dir },
          { header: 'DECLARED BY', value: (p) => p.declaredBy ?? '' },
        ]),
      );
      for (const root of list.ignored) process.stderr.write(`ignored ${root.dir}: ${root.reason}\n`);
      for (const problem of list.problems) process.stderr.write(`cannot use ${problem.packageName}@${problem.version} (${problem.dir}): ${problem.error}\n`);
    }
    return list;
  }
}
