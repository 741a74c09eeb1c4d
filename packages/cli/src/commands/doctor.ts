import { Flags } from '@oclif/core';
import { doctor } from '@netbench/core';
import { NetbenchCommand } from '../lib/base-command.js';
import { cliRegistry } from '../lib/registry.js';
import { formatTable } from '../lib/format/table.js';

export default class Doctor extends NetbenchCommand {
  static override summary = 'Check this machine: tools and their versions and build features, privileges, kernel qdiscs.';
  static override description = 'Exit codes: 0 everything needed is present · 1 something is missing.';
  static override examples = ['<%= config.bin %> doctor', 'sudo <%= config.bin %> doctor --install'];
  static override flags = {
    install: Flags.boolean({ summary: 'Install missing tools with apt-get (Debian/Ubuntu, as root).' }),
  };

  async run() {
    const { flags } = await this.parse(Doctor);
    const report = await doctor({
      registry: cliRegistry(),
      install: flags.install,
      log: { debug() {}, info: (m) => process.stderr.write(`${m}\n`), warn: (m) => process.stderr.write(`warning: ${m}\n`) },
    });
    if (!this.jsonEnabled()) {
      this.log(formatTable(report.checks, [
        { header: '', value: (c) => (c.ok ? '✓' : c.severity === 'warning' ? '!' : '✗') },
        { header: 'check', value: (c) => c.name },
        { header: 'found', value: (c) => c.detail },
        { header: 'to fix', value: (c) => (c.ok ? '' : c.fix ?? '') },
      ]));
    }
    if (!report.ok) process.exitCode = 1;
    return report;
  }
}
