import { Args, Flags } from '@oclif/core';
import { COST_LIMIT_EXIT_CODE, costPlanSpec, planShaping } from '@netbench/core';
import { NetbenchCommand } from '../lib/base-command.js';
import { cliRegistry } from '../lib/registry.js';
import { formatPlan } from '../lib/format/plan.js';
import { formatCost } from '../lib/format/cost.js';
import { parseUsd } from '../lib/parse-usd.js';

export default class Plan extends NetbenchCommand {
  static override summary = 'Show the hosts and trials a spec would run, and what they would cost, touching nothing.';
  static override description = `Exit codes: 0 planned · 2 spec invalid · ${COST_LIMIT_EXIT_CODE} estimate above --max-cost.`;
  static override examples = [
    '<%= config.bin %> plan examples/whitepaper-inter-zone.yaml',
    '<%= config.bin %> plan spec.yaml --json',
    '<%= config.bin %> plan spec.yaml --max-cost 5',
  ];
  static override args = { spec: Args.string({ required: true, description: 'spec file (YAML)' }) };
  static override flags = {
    set: Flags.string({ multiple: true, summary: 'Override a spec field: path=value.' }),
    'max-cost': Flags.string({ summary: `Exit with ${COST_LIMIT_EXIT_CODE} when the estimated cost is above this many USD.` }),
  };

  async run() {
    const { args, flags } = await this.parse(Plan);
    const maxCostUsd = flags['max-cost'] !== undefined ? parseUsd(flags['max-cost']) : undefined;
    const { plan, warnings, cost, overBudget } = await costPlanSpec({ file: args.spec, sets: flags.set, registry: cliRegistry(), maxCostUsd });
    for (const warning of warnings) process.stderr.write(`warning: ${warning}\n`);
    if (!this.jsonEnabled()) this.log(`${formatPlan(plan)}\n\n${formatCost(cost)}`);
    if (overBudget) {
      process.stderr.write(`estimated cost $${cost.usd.toFixed(2)} is above --max-cost $${maxCostUsd!.toFixed(2)}\n`);
      process.exitCode = COST_LIMIT_EXIT_CODE;
    }
    const { spec, ...rest } = plan;
    return { name: spec.name, warnings, ...rest, shaping: planShaping(plan), cost };
  }
}

