import { convertPkb } from '@netbench/core';
import { Args, Flags } from '@oclif/core';
import { NetbenchCommand } from '../lib/base-command.js';
import { cliRegistry } from '../lib/registry.js';

export default class Convert extends NetbenchCommand {
  static override summary = 'Translate a PerfKit Benchmarker config into a netbench spec.';
  static override description =
    'Reads a PKB benchmark config (netperf:, iperf:, ping: ... with vm_groups, flags, flag_matrix), validates the translation like any spec and prints the native YAML. `run`, `plan` and `validate` read PKB configs directly too; see docs/pkb.md. Exit codes: 0 converted · 2 invalid.';
  static override examples = [
    '<%= config.bin %> convert interzone_us_west1.yaml',
    '<%= config.bin %> convert interzone_us_west1.yaml --out interzone.netbench.yaml',
    '<%= config.bin %> convert interzone_us_west1.yaml --json',
  ];
  static override args = { config: Args.string({ required: true, description: 'PerfKit Benchmarker config (YAML)' }) };
  static override flags = {
    out: Flags.string({ char: 'o', summary: 'Write the native spec to this file instead of printing it.' }),
    set: Flags.string({ multiple: true, summary: 'Override a field of the PKB config before translating: path=value (e.g. netperf.flags.netperf_test_length=10).' }),
  };

  async run() {
    const { args, flags } = await this.parse(Convert);
    const result = await convertPkb({ file: args.config, registry: cliRegistry(), sets: flags.set ?? [], ...(flags.out ? { out: flags.out } : {}) });
    for (const warning of result.warnings) process.stderr.write(`warning: ${warning}\n`);
    if (!this.jsonEnabled()) {
      if (flags.out) this.log(`wrote ${flags.out}`);
      else process.stdout.write(result.yaml);
    }
    return { file: result.file, ...(result.out ? { out: result.out } : {}), spec: result.spec, warnings: result.warnings };
  }
}
