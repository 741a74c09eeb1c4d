import { printable } from '@netbench/core/run';
import { NetbenchError } from '@netbench/plugin-api';
import { Command, Flags } from '@oclif/core';

/**
 * Every netbench command: `--json` prints the command's return value, and a
 * NetbenchError is shown as its message (no stack) with its exit code.
 */
export abstract class NetbenchCommand extends Command {
  static override enableJsonFlag = true;

  static override baseFlags = {
    'log-level': Flags.option({ options: ['error', 'warn', 'info', 'debug'] as const, default: 'info', helpGroup: 'GLOBAL', summary: 'How much to print on stderr.' })(),
  };

  // oclif colourises JSON token by token, which takes seconds on a 10,000-trial
  // plan; plain JSON is what scripts read anyway.
  protected override logJson(json: unknown): void {
    process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
  }

  protected override async catch(error: Error & { exitCode?: number; oclif?: { exit?: number } }): Promise<unknown> {
    if (!(error instanceof NetbenchError)) return super.catch(error);
    if (this.jsonEnabled()) {
      this.logJson({ error: { name: error.name, message: error.message, ...('issues' in error ? { issues: error.issues } : {}) } });
    } else {
      process.stderr.write(`${printable(error.message)}\n`);
    }
    return this.exit(error.exitCode);
  }
}
