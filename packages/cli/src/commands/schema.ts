import { writeFile } from 'node:fs/promises';
import { Flags } from '@oclif/core';
import { specJsonSchema } from '@netbench/core';
import { NetbenchCommand } from '../lib/base-command.js';
import { cliRegistry } from '../lib/registry.js';

export default class Schema extends NetbenchCommand {
  static override summary = 'Print the JSON Schema of specs (core skeleton + every installed plugin) for editor autocompletion.';
  static override examples = [
    '<%= config.bin %> schema > netbench.schema.json',
    '# then, first line of a spec:  # yaml-language-server: $schema=./netbench.schema.json',
  ];
  static override enableJsonFlag = false;
  static override flags = { out: Flags.string({ char: 'o', summary: 'Write to this file instead of stdout.' }) };

  async run() {
    const { flags } = await this.parse(Schema);
    const text = `${JSON.stringify(await specJsonSchema(cliRegistry()), null, 2)}\n`;
    if (flags.out) await writeFile(flags.out, text);
    else process.stdout.write(text);
  }
}
