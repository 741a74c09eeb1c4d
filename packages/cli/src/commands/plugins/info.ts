import { pluginInfo } from '@netbench/core';
import { Args, Flags } from '@oclif/core';
import { NetbenchCommand } from '../../lib/base-command.js';
import { formatTable } from '../../lib/format/table.js';
import { cliSearchDirs } from '../../lib/registry.js';

export default class PluginsInfo extends NetbenchCommand {
  static override summary = "Kind, version, package and the fields of one plugin's spec block.";
  static override examples = ['<%= config.bin %> plugins info ping', '<%= config.bin %> plugins info local --json'];
  static override args = { name: Args.string({ required: true, description: 'plugin name or package name' }) };
  static override flags = { kind: Flags.option({ options: ['cloud', 'tool', 'publisher'] as const, summary: 'When several kinds share the name.' })() };

  async run() {
    const { args, flags } = await this.parse(PluginsInfo);
    const info = await pluginInfo({ name: args.name, searchDirs: cliSearchDirs(), ...(flags.kind ? { kind: flags.kind } : {}) });
    if (!this.jsonEnabled()) {
      this.log(`${info.kind} ${info.name}${info.description ? ` — ${info.description}` : ''}`);
      this.log(`package   ${info.packageName}@${info.version} (${info.source}, ${info.dir})`);
      this.log(`api       plugin API version ${info.apiVersion}${info.hooks.length > 0 ? `; optional hooks: ${info.hooks.join(', ')}` : ''}`);
      this.log('');
      this.log(
        formatTable(info.fields, [
          { header: 'FIELD', value: (f) => `${f.name}${f.required ? '' : '?'}` },
          { header: 'TYPE', value: (f) => f.type },
          { header: 'DEFAULT', value: (f) => (f.default === undefined ? '' : JSON.stringify(f.default)) },
          { header: 'DESCRIPTION', value: (f) => f.description ?? '' },
        ]),
      );
    }
    return info;
  }
}
