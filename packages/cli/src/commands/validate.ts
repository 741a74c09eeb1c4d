import { planSpec, printable } from '@netbench/core';
import { Args, Flags } from '@oclif/core';
import { NetbenchCommand } from '../lib/base-command.js';
import { cliRegistry } from '../lib/registry.js';

export default class Validate extends NetbenchCommand {
  static override summary = 'Check a spec: every problem reported at once as file:line:col.';
  static override description = 'Exit codes: 0 valid · 2 invalid.';
  static override examples = ['<%= config.bin %> validate examples/quickstart.yaml'];
  static override args = { spec: Args.string({ required: true, description: 'spec file (YAML)' }) };
  static override flags = { set: Flags.string({ multiple: true, summary: 'Override a spec field: path=value.' }) };

  async run() {
    const { args, flags } = await this.parse(Validate);
    const { plan, warnings } = await planSpec({ file: args.spec, sets: flags.set, registry: cliRegistry() });
    for (const warning of warnings) process.stderr.write(`warning: ${printable(warning)}\n`);
    this.log(`${printable(args.spec)}: valid · ${plan.fleet.length} hosts · ${plan.trials.length} trials`);
    return { valid: true, file: args.spec, hosts: plan.fleet.length, trials: plan.trials.length, warnings };
  }
}
