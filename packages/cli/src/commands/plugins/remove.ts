import { removePlugin } from '@netbench/core';
import { Args } from '@oclif/core';
import { NetbenchCommand } from '../../lib/base-command.js';
import { cliSearchDirs } from '../../lib/registry.js';

export default class PluginsRemove extends NetbenchCommand {
  static override summary = 'Uninstall a plugin added with `plugins add`.';
  static override examples = ['<%= config.bin %> plugins remove sockperf', '<%= config.bin %> plugins remove netbench-plugin-sockperf'];
  static override args = { name: Args.string({ required: true, description: 'plugin name or package name' }) };

  async run() {
    const { args } = await this.parse(PluginsRemove);
    const removed = await removePlugin({ name: args.name, searchDirs: cliSearchDirs() });
    if (!this.jsonEnabled()) this.log(`removed ${removed.kind} ${removed.name} (${removed.packageName}@${removed.version})`);
    return removed;
  }
}
