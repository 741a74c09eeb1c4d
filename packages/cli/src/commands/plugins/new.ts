import { Args, Flags } from '@oclif/core';
import { newPlugin } from '@netbench/core';
import { NetbenchCommand } from '../../lib/base-command.js';

export default class PluginsNew extends NetbenchCommand {
  static override summary = 'Create a ready plugin package: TypeScript, build, conformance tests, README.';
  static override examples = [
    '<%= config.bin %> plugins new --kind tool sockperf',
    '<%= config.bin %> plugins new --kind publisher influx --dir ./influx-publisher',
  ];
  static override args = { name: Args.string({ required: true, description: 'the name specs use (tool: <name>)' }) };
  static override flags = {
    kind: Flags.option({ options: ['tool', 'cloud', 'publisher'] as const, required: true, summary: 'What the plugin is.' })(),
    dir: Flags.string({ summary: 'Folder to create (default ./netbench-plugin-<name>).' }),
    package: Flags.string({ summary: 'Package name (default netbench-plugin-<name>).' }),
    core: Flags.string({ summary: 'npm spec of @netbench/core to develop against (default ^<this version>).' }),
  };

  async run() {
    const { args, flags } = await this.parse(PluginsNew);
    const made = await newPlugin({
      kind: flags.kind,
      name: args.name,
      ...(flags.dir ? { dir: flags.dir } : {}),
      ...(flags.package ? { packageName: flags.package } : {}),
      ...(flags.core ? { coreSpec: flags.core } : {}),
    });
    if (!this.jsonEnabled()) {
      this.log(`created ${made.packageName} in ${made.dir}:`);
      for (const file of made.files) this.log(`  ${file}`);
      this.log(`next: cd ${made.dir} && npm install && npm test`);
    }
    return made;
  }
}
