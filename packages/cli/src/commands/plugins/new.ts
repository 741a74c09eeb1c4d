import { newPlugin } from '@netbench/core';
import { Args, Flags } from '@oclif/core';
import { NetbenchCommand } from '../../lib/base-command.js';

export default class PluginsNew extends NetbenchCommand {
  static override summary = 'Create a ready plugin package: TypeScript, build, conformance tests, README.';
  static override examples = ['<%= config.bin %> plugins new --kind tool sockperf', '<%= config.bin %> plugins new --kind publisher influx --dir ./influx-publisher'];
  static override args = { name: Args.string({ required: true, description: 'the name specs use (tool: <name>)' }) };
  static override flags = {
    kind: Flags.option({ options: ['tool', 'cloud', 'publisher'] as const, required: true, summary: 'What the plugin is.' })(),
    dir: Flags.string({ summary: 'Folder to create (default ./netbench-plugin-<name>).' }),
    package: Flags.string({ summary: 'Package name (default netbench-plugin-<name>).' }),
    'plugin-api': Flags.string({ summary: "npm spec of @netbench/plugin-api to develop against (default: this netbench's own, as a file: link)." }),
    force: Flags.boolean({ summary: "Write into a folder that is not empty (overwrites the scaffold's files)." }),
  };

  async run() {
    const { args, flags } = await this.parse(PluginsNew);
    const made = await newPlugin({
      kind: flags.kind,
      name: args.name,
      ...(flags.dir ? { dir: flags.dir } : {}),
      ...(flags.package ? { packageName: flags.package } : {}),
      ...(flags['plugin-api'] ? { apiSpec: flags['plugin-api'] } : {}),
      ...(flags.force ? { force: true } : {}),
    });
    if (!this.jsonEnabled()) {
      this.log(`created ${made.packageName} in ${made.dir}:`);
      for (const file of made.files) this.log(`  ${file}`);
      this.log(`next: cd ${made.dir} && npm install && npm test`);
    }
    return made;
  }
}
