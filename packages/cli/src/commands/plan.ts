import { Args, Flags } from '@oclif/core';
import { planSpec } from '@netbench/core';
import { NetbenchCommand } from '../lib/base-command.js';
import { cliRegistry } from '../lib/registry.js';
import { formatPlan } from '../lib/format/plan.js';

export default class Plan extends NetbenchCommand {
  static override summary = 'Show the hosts and trials a spec would run, touching nothing.';
  static override examples = ['<%= config.bin %> plan examples/whitepaper-inter-zone.yaml', '<%= config.bin %> plan spec.yaml --json'];
  static override args = { spec: Args.string({ required: true, description: 'spec file (YAML)' }) };
  static override flags = { set: Flags.string({ multiple: true, summary: 'Override a spec field: path=value.' }) };

  async run() {
    const { args, flags } = await this.parse(Plan);
    const { plan, warnings } = await planSpec({ file: args.spec, sets: flags.set, registry: cliRegistry() });
    for (const warning of warnings) process.stderr.write(`warning: ${warning}\n`);
    if (!this.jsonEnabled()) this.log(formatPlan(plan));
    const { spec, ...rest } = plan;
    return { name: spec.name, warnings, ...rest };
  }
}
