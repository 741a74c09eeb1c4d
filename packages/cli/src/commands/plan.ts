import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { COST_LIMIT_EXIT_CODE, costPlanSpec, planShaping, shardJobManifest, shardJobWarnings, splitSpec } from '@netbench/core';
import { NetbenchError } from '@netbench/plugin-api';
import { Args, Flags } from '@oclif/core';
import { NetbenchCommand } from '../lib/base-command.js';
import { formatCost } from '../lib/format/cost.js';
import { formatPlan } from '../lib/format/plan.js';
import { parseUsd } from '../lib/parse-usd.js';
import { cliRegistry } from '../lib/registry.js';

export default class Plan extends NetbenchCommand {
  static override summary = 'Show the hosts and trials a spec would run, and what they would cost, touching nothing.';
  static override description = `Exit codes: 0 planned · 2 spec invalid · ${COST_LIMIT_EXIT_CODE} estimate above --max-cost.
--shards N splits the plan into N shards that never use the same fixed host at once (docs/long-studies.md): --emit specs writes one self-contained spec per shard into --out; --emit k8s-job prints a ConfigMap and an Indexed Job whose completion index picks the shard.`;
  static override examples = [
    '<%= config.bin %> plan examples/whitepaper-inter-zone.yaml',
    '<%= config.bin %> plan spec.yaml --json',
    '<%= config.bin %> plan spec.yaml --max-cost 5',
    '<%= config.bin %> plan spec.yaml --shards 4 --out shards/',
    '<%= config.bin %> plan spec.yaml --shards 4 --emit k8s-job --image registry.example/netbench:1 > job.yaml',
  ];
  static override args = { spec: Args.string({ required: true, description: 'spec file (YAML)' }) };
  static override flags = {
    set: Flags.string({ multiple: true, summary: 'Override a spec field: path=value.' }),
    'max-cost': Flags.string({ summary: `Exit with ${COST_LIMIT_EXIT_CODE} when the estimated cost is above this many USD.` }),
    shards: Flags.integer({ min: 1, max: 10_000, summary: 'Split the plan into this many shards.' }),
    emit: Flags.option({
      options: ['specs', 'k8s-job'] as const,
      default: 'specs',
      summary: 'With --shards: shard spec files (into --out), or a Kubernetes Indexed Job manifest (stdout or --out).',
    })(),
    out: Flags.string({ summary: 'With --shards: folder for shard-<i>.yaml (specs), or the manifest file (k8s-job).' }),
    study: Flags.string({ summary: 'With --shards: the study id the shards share (default from the spec).' }),
    image: Flags.string({ summary: 'With --emit k8s-job: the container image with netbench (default netbench:latest).' }),
  };

  async run() {
    const { args, flags } = await this.parse(Plan);
    if (flags.shards !== undefined) return this.shards(args.spec, flags);
    const maxCostUsd = flags['max-cost'] !== undefined ? parseUsd(flags['max-cost']) : undefined;
    const { plan, warnings, cost, overBudget } = await costPlanSpec({ file: args.spec, sets: flags.set, registry: cliRegistry(), maxCostUsd });
    for (const warning of warnings) process.stderr.write(`warning: ${warning}\n`);
    if (!this.jsonEnabled()) this.log(`${formatPlan(plan)}\n\n${formatCost(cost)}`);
    if (overBudget) {
      process.stderr.write(`estimated cost $${cost.usd.toFixed(2)} is above --max-cost $${maxCostUsd!.toFixed(2)}\n`);
      process.exitCode = COST_LIMIT_EXIT_CODE;
    }
    // Settings hold resolved secrets (a database URL with its password): never printed, as the spec is not.
    const { spec, publishSettings: _settings, ...rest } = plan;
    return { name: spec.name, warnings, ...rest, shaping: planShaping(plan), cost };
  }

  private async shards(file: string, flags: { set?: string[]; shards?: number; emit: 'specs' | 'k8s-job'; out?: string; study?: string; image?: string }) {
    const split = await splitSpec({ file, sets: flags.set, registry: cliRegistry(), count: flags.shards!, ...(flags.study !== undefined ? { study: flags.study } : {}) });
    const localLab = Object.values(split.plan.spec.hosts).some((h) => h.cloud === 'local');
    const warnings = [...split.warnings, ...(flags.emit === 'k8s-job' ? shardJobWarnings(split.plan.spec.publish, undefined, localLab) : [])];
    for (const warning of warnings) process.stderr.write(`warning: ${warning}\n`);
    const shards = split.shards.map(({ index, trials, fleet, estimatedSeconds }) => ({
      index,
      trials: trials.length,
      fleet,
      estimatedSeconds,
      ...(flags.emit === 'specs' && flags.out ? { file: join(flags.out, `shard-${index}.yaml`) } : {}),
    }));
    if (flags.emit === 'k8s-job') {
      const manifest = shardJobManifest({
        name: split.plan.spec.name,
        specText: split.text,
        count: flags.shards!,
        study: split.study,
        localLab,
        ...(flags.image ? { image: flags.image } : {}),
      });
      if (flags.out) await writeFile(flags.out, manifest);
      else if (!this.jsonEnabled()) process.stdout.write(manifest);
      return { study: split.study, shards, manifest, warnings };
    }
    if (!flags.out) throw new NetbenchError('--shards with --emit specs needs --out FOLDER for the shard specs');
    await mkdir(flags.out, { recursive: true });
    for (const shard of split.shards) await writeFile(join(flags.out, `shard-${shard.index}.yaml`), shard.text);
    if (!this.jsonEnabled()) {
      for (const s of shards) this.log(`shard ${s.index}: ${s.trials} trials on ${s.fleet.join(', ') || 'no hosts'} (~${Math.round(s.estimatedSeconds)} s) → ${s.file}`);
      this.log(`study ${split.study}`);
    }
    return { study: split.study, shards, warnings };
  }
}
