import { runCommand } from '@netbench/plugin-api/cloud-kit';

// One `ip` line's word: `ip -batch` splits lines on blanks and reads quotes,
// backslashes and `#`, so a word holding any of them could become two words
// or a comment. Every word here is a netbench name, an address or a keyword;
// anything else is refused rather than quoted.
const WORD_RE = /^[A-Za-z0-9_.:/@=+-]+$/;

/** An `ip` argv run in namespace `netns` when given (`ip -n NETNS ...`), else in this process's own. */
export function ipIn(netns: string | undefined, ...args: string[]): string[] {
  return ['ip', ...(netns !== undefined ? ['-n', netns] : []), ...args];
}

/** `ip` commands (argv without the leading `ip`) as the lines of `ip -batch`. */
export function batchLines(commands: readonly (readonly string[])[]): string {
  return commands.map((argv) => {
    const bad = argv.find((word) => !WORD_RE.test(word));
    if (bad !== undefined) throw new Error(`ip -batch: refusing the word ${JSON.stringify(bad)}`);
    return `${argv.join(' ')}\n`;
  }).join('');
}

/**
 * Run `ip` commands in one `ip` process (one spawn instead of one each,
 * issue 19), inside `netns` when given. `ip -batch` stops at the first
 * command that fails and exits non-zero; the error names that command and
 * carries `ip`'s message, as `mustRun` of it alone would.
 */
export async function ipBatch(commands: readonly (readonly string[])[], netns?: string): Promise<void> {
  const input = batchLines(commands);
  const argv = ipIn(netns, '-batch', '-');
  const result = await runCommand(argv, { stdin: input });
  if (result.code === 0) return;
  const line = Number(/Command failed -:(\d+)/.exec(result.stderr)?.[1]);
  const failed = commands[line - 1];
  const what = failed ? `ip ${netns !== undefined ? `-n ${netns} ` : ''}${failed.join(' ')}` : argv.join(' ');
  throw new Error(`${what} failed (exit ${result.code ?? 'signal'}): ${result.stderr.replace(/Command failed -:\d+\s*$/, '').trim() || result.stdout.trim()}`);
}
