import { addPlugin } from '@netbench/core';
import { Args } from '@oclif/core';
import { NetbenchCommand } from '../../lib/base-command.js';
import { cliSearchDirs } from '../../lib/registry.js';

export default class PluginsAdd extends NetbenchCommand {
  static override summary = 'Install a plugin into the user plugin folder ($NETBENCH_HOME/plugins) and verify it.';
  static override description =
    'Runs `npm install --prefix` there, then imports the package once: one that is not a netbench plugin, is written for another plugin API version or takes a name already in use is uninstalled again, with the reason.';
  static override examples = [
    '<%= config.bin %> plugins add netbench-plugin-sockperf',
    '<%= config.bin %> plugins add ./netbench-plugin-sockperf-0.1.0.tgz',
    '<%= config.bin %> plugins add ../my-plugin',
  ];
  static override args = { spec: Args.string({ required: true, description: 'npm package spec, folder or tarball' }) };

  async run() {
    const { args } = await this.parse(PluginsAdd);
    const added = await addPlugin({ spec: args.spec, searchDirs: cliSearchDirs() });
    if (!this.jsonEnabled()) this.log(`added ${added.kind} ${added.name} (${added.packageName}@${added.version}) in ${added.dir}`);
    return added;
  }
}
