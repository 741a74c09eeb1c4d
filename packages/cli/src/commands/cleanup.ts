import { cleanupAll, cleanupRun } from '@netbench/core';
import { NetbenchError } from '@netbench/plugin-api';
import { Args, Flags } from '@oclif/core';
import { NetbenchCommand } from '../lib/base-command.js';
import { parseDuration } from '../lib/parse-duration.js';
import { cliRegistry } from '../lib/registry.js';

export default class Cleanup extends NetbenchCommand {
  static override summary = 'Tear down what a crashed or killed run left behind.';
  static override description =
    "With a run id or folder, replays that run's ledger backwards. With --all, also asks every cloud plugin for resources named after any netbench run, sparing those of runs still alive on this machine whatever their runs folder. Exit codes: 0 nothing left · 4 something could not be deleted.";
  static override examples = [
    '<%= config.bin %> cleanup 20261122-110256-k3f9a2',
    '<%= config.bin %> cleanup --all --older-than 4h',
    '<%= config.bin %> cleanup --all --dry-run --json',
  ];
  static override args = { run: Args.string({ required: false, description: 'run id or run folder' }) };
  static override flags = {
    all: Flags.boolean({ summary: 'Find leftovers of every run, by their run-id naming and unfinished ledgers.' }),
    'older-than': Flags.string({ summary: 'With --all: only resources older than this (e.g. 30m, 4h, 2d).' }),
    cloud: Flags.string({ summary: 'With --all: only this cloud plugin.' }),
    'dry-run': Flags.boolean({ summary: 'List what would be deleted, delete nothing.' }),
    force: Flags.boolean({ summary: 'With a run: clean it even while its process is alive (it is refused otherwise).' }),
    'runs-dir': Flags.string({ summary: 'Parent folder of run folders (default ~/.netbench/runs).' }),
  };

  async run() {
    const { args, flags } = await this.parse(Cleanup);
    if (!args.run && !flags.all) throw new NetbenchError('name a run (id or folder) or pass --all');
    const registry = cliRegistry();
    const outcome = args.run
      ? await cleanupRun(args.run, { registry, runsDir: flags['runs-dir'], force: flags.force, dryRun: flags['dry-run'] })
      : await cleanupAll({
          registry,
          runsDir: flags['runs-dir'],
          cloud: flags.cloud,
          dryRun: flags['dry-run'],
          olderThanMs: flags['older-than'] ? parseDuration(flags['older-than']) : undefined,
        });
    if (!this.jsonEnabled()) {
      const verb = flags['dry-run'] ? 'would delete' : 'deleted';
      for (const resource of outcome.deleted) this.log(`${verb} ${resource.type} ${resource.id}`);
      for (const { resource, error } of outcome.failed) process.stderr.write(`could not delete ${resource.type} ${resource.id}: ${error}\n`);
      for (const { cloud, reason } of outcome.skipped ?? []) process.stderr.write(`skipped ${cloud}: ${reason} (--cloud ${cloud} makes this an error)\n`);
      for (const { resource, reason } of outcome.spared ?? []) this.log(`spared ${resource.type} ${resource.id}: ${reason}`);
      if (outcome.deleted.length === 0 && outcome.failed.length === 0 && !outcome.spared?.length) this.log('nothing left behind');
    }
    if (outcome.failed.length > 0) process.exitCode = 4;
    return outcome;
  }
}
