import { launchElectron, serveBrowserUi } from '@netbench/desktop';
import { Flags } from '@oclif/core';
import { NetbenchCommand } from '../lib/base-command.js';
import { cliRegistry, cliSearchDirs } from '../lib/registry.js';

export default class Ui extends NetbenchCommand {
  static override summary = 'Open the desktop app (Electron), or serve it to a browser on loopback with --browser.';
  static override description =
    'With --browser the app is served on 127.0.0.1 only; the printed URL carries a random sign-in token good for one sign-in, exchanged for a separate session secret in a cookie. Ctrl-C stops serving (running runs are cancelled and torn down first).';
  static override examples = ['<%= config.bin %> ui', '<%= config.bin %> ui --browser', '<%= config.bin %> ui --browser --port 0 --json'];
  static override flags = {
    browser: Flags.boolean({ summary: 'Serve the app on 127.0.0.1 for a web browser instead of opening Electron.' }),
    port: Flags.integer({ min: 0, max: 65_535, default: 0, summary: 'Port for --browser (0: any free port).' }),
    db: Flags.string({ summary: 'Results store (default $NETBENCH_DB, else $NETBENCH_HOME/netbench.db).' }),
    'runs-dir': Flags.string({ summary: 'Parent folder of run folders (default ~/.netbench/runs).' }),
  };

  async run() {
    const { flags } = await this.parse(Ui);
    if (!flags.browser) {
      process.exitCode = await launchElectron();
      return undefined;
    }
    const ui = await serveBrowserUi({
      registry: cliRegistry(),
      version: this.config.version,
      searchDirs: cliSearchDirs(),
      port: flags.port,
      // The editor's checks run in a worker thread with a registry of the same roots.
      checkWorker: { searchDirs: cliSearchDirs() },
      ...(flags.db !== undefined ? { db: flags.db } : {}),
      ...(flags['runs-dir'] !== undefined ? { runsDir: flags['runs-dir'] } : {}),
    });
    const ready = { url: ui.server.url, origin: ui.server.origin, port: ui.server.port, token: ui.server.token };
    // Printed at once (the command keeps running): scripts read this line to connect.
    if (this.jsonEnabled()) process.stdout.write(`${JSON.stringify(ready)}\n`);
    else this.log(`netbench is serving the app on loopback. Open:\n\n  ${ready.url}\n\nCtrl-C to stop.`);
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    process.stderr.write('stopping: cancelling running runs and tearing down…\n');
    await ui.close();
    return undefined;
  }

  // The ready line was the JSON output; nothing more to print when the server stops.
  protected override logJson(json: unknown): void {
    if (json !== undefined) super.logJson(json);
  }
}
