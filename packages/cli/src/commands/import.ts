import type { Labels } from '@netbench/plugin-api';
import { ImportError, importFiles } from '@netbench/results';
import { Flags } from '@oclif/core';
import { NetbenchCommand } from '../lib/base-command.js';
import { cliRegistry } from '../lib/registry.js';

export default class Import extends NetbenchCommand {
  static override summary = "Turn raw tool outputs measured elsewhere into a run (one trial per file), through the tool plugins' own parsers.";
  static override description =
    `Formats: ping (iputils, incl. -f/-q/-D), netperf (classic, -o CSV, -k), iperf3 (-J JSON or text), iperf (iperf 2, -e), fping (-c/-C), http (ab and wrk reports, oha JSON), irtt (JSON, -o), pktgen (/proc/net/pktgen/<device>), hping3 (SYN probes, --flood). --tool auto recognises each file.
Exit codes: 0 every file imported · 2 nothing imported (a file unreadable or unrecognised, a tool not installed) · 3 some files could not be parsed (kept as failed trials, with file and line) · 1 the results store refused the run (the run folder is complete).`;
  static override examples = [
    '<%= config.bin %> import ping-*.txt',
    '<%= config.bin %> import --tool netperf --test TCP_RR np.csv --label zone=us-west1-a',
    '<%= config.bin %> import --tool iperf3 client.json --name office-wifi --json',
  ];
  static override strict = false;
  static override flags = {
    tool: Flags.string({ default: 'auto', summary: 'ping, netperf, iperf3, iperf, fping, http, irtt, pktgen, hping3 (any installed tool plugin), or auto.' }),
    name: Flags.string({ default: 'import', summary: "Name of the run (as a spec's name)." }),
    label: Flags.string({ multiple: true, summary: 'key=value added to the run and every sample (repeatable).' }),
    test: Flags.string({ summary: 'Test name for outputs that do not say (netperf -P 0 CSV).' }),
    'runs-dir': Flags.string({ summary: 'Parent folder of run folders (default ~/.netbench/runs).' }),
    db: Flags.string({ summary: 'Results store (default $NETBENCH_DB, else $NETBENCH_HOME/netbench.db).' }),
    store: Flags.boolean({ default: true, allowNo: true, summary: 'Store the run in the results store (--no-store: run folder only).' }),
  };

  async run() {
    const { argv, flags } = await this.parse(Import);
    const outcome = await importFiles({
      tool: flags.tool,
      files: argv.map(String),
      registry: cliRegistry(),
      name: flags.name,
      labels: parseLabels(flags.label ?? []),
      ...(flags.test !== undefined ? { test: flags.test } : {}),
      runsDir: flags['runs-dir'],
      db: flags.store ? flags.db : false,
      netbenchVersion: this.config.version,
    });
    const { record } = outcome;
    if (!this.jsonEnabled()) {
      for (const f of outcome.files) {
        const line = `${f.trialId}  ${f.tool.padEnd(7)} ${f.test.padEnd(10)} ${f.status === 'succeeded' ? `${f.samples} samples`.padEnd(11) : 'FAILED     '} ${f.file}`;
        this.log(line);
        if (f.error !== undefined) process.stderr.write(`  ${f.error}\n`);
      }
      for (const error of record.errors) process.stderr.write(`error: ${error}\n`);
      this.log(
        `\nrun ${record.runId} ${record.status} · ${outcome.samples.length} samples · ${record.runDir}/results.json${outcome.storedIn ? ` · stored in ${outcome.storedIn}` : ''}`,
      );
    }
    process.exitCode = outcome.exitCode;
    return {
      runId: record.runId,
      status: record.status,
      exitCode: outcome.exitCode,
      runDir: record.runDir,
      ...(outcome.storedIn !== undefined ? { storedIn: outcome.storedIn } : {}),
      files: outcome.files,
      samples: outcome.samples.length,
      errors: record.errors,
    };
  }
}

/** `--label key=value` pairs; values stay strings, as typed. */
function parseLabels(pairs: readonly string[]): Labels {
  const labels: Labels = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new ImportError(`--label ${JSON.stringify(pair)}: expected key=value`);
    labels[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return labels;
}
