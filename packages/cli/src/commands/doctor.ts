import { doctor } from '@netbench/core';
import { Args, Flags } from '@oclif/core';
import { NetbenchCommand } from '../lib/base-command.js';
import { formatTable } from '../lib/format/table.js';
import { cliRegistry } from '../lib/registry.js';

export default class Doctor extends NetbenchCommand {
  static override summary = 'Check this machine (tools, privileges, kernel qdiscs), or one cloud account with --cloud.';
  static override description =
    'Without --cloud nothing leaves this machine. With --cloud aws|gcp|azure the cloud is asked which identity the credentials belong to and, given a SPEC, whether the vCPU quota of each region leaves room for the plan. Exit codes: 0 everything needed is present · 1 something is missing.';
  static override examples = ['<%= config.bin %> doctor', 'sudo <%= config.bin %> doctor --install', '<%= config.bin %> doctor --cloud aws examples/aws-inter-zone.yaml'];
  static override args = { spec: Args.string({ required: false, description: 'with --cloud: spec whose hosts the quota check counts' }) };
  static override flags = {
    install: Flags.boolean({ summary: 'Install missing tools with apt-get (Debian/Ubuntu, as root).' }),
    cloud: Flags.string({ summary: 'Check this cloud account instead: credentials, identity, quota headroom for SPEC.' }),
    set: Flags.string({ multiple: true, summary: 'Override a field of SPEC: path=value.' }),
  };

  async run() {
    const { args, flags } = await this.parse(Doctor);
    const report = await doctor({
      registry: cliRegistry(),
      install: flags.install,
      ...(flags.cloud ? { cloud: flags.cloud } : {}),
      ...(flags.cloud && args.spec ? { spec: { file: args.spec, sets: flags.set } } : {}),
      log: { debug() {}, info: (m) => process.stderr.write(`${m}\n`), warn: (m) => process.stderr.write(`warning: ${m}\n`) },
    });
    if (!this.jsonEnabled()) {
      this.log(
        formatTable(report.checks, [
          { header: '', value: (c) => (c.ok ? '✓' : c.severity === 'warning' ? '!' : '✗') },
          { header: 'check', value: (c) => c.name },
          { header: 'found', value: (c) => c.detail },
          { header: 'to fix', value: (c) => (c.ok ? '' : (c.fix ?? '')) },
        ]),
      );
    }
    if (!report.ok) process.exitCode = 1;
    return report;
  }
}
