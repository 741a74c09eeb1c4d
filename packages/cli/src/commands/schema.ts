import { writeFile } from 'node:fs/promises';
import { specJsonSchema } from '@netbench/core';
import { Flags } from '@oclif/core';
import { NetbenchCommand } from '../lib/base-command.js';
import { cliRegistry } from '../lib/registry.js';

export default class Schema extends NetbenchCommand {
  static override summary = 'Print the JSON Schema of specs (core skeleton + every installed plugin) for editor autocompletion.';
  static override examples = [
    '<%= config.bin %> schema > netbench.schema.json',
    '# then, first line of a spec:  # yaml-language-server: $schema=./netbench.schema.json',
    '<%= config.bin %> schema --json | jq .properties.hosts',
  ];
  static override flags = { out: Flags.string({ char: 'o', summary: 'Write to this file instead of stdout.' }) };

  /** The schema; with `--json` printed as the return value (the same JSON), with `--out` written there. */
  async run() {
    const { flags } = await this.parse(Schema);
    const schema = await specJsonSchema(cliRegistry());
    if (flags.out) await writeFile(flags.out, `${JSON.stringify(schema, null, 2)}\n`);
    else if (!this.jsonEnabled()) process.stdout.write(`${JSON.stringify(schema, null, 2)}\n`);
    return flags.out && this.jsonEnabled() ? { out: flags.out } : schema;
  }
}
