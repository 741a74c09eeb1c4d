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
  return commands
    .map((argv) => {
      const bad = argv.find((word) => !WORD_RE.test(word));
      if (bad !== undefined) throw new Error(`ip -batch: refusing the word ${JSON.stringify(bad)}`);
      return `${argv.join(' ')}\n`;
    })
    .join('');
}

const shown = (netns: string | undefined, argv: readonly string[]) => `ip ${netns !== undefined ? `-n ${netns} ` : ''}${argv.join(' ')}`;

/**
 * Run `ip` commands in one `ip` process (one spawn instead of one
 * each), inside `netns` when given, and say which failed: one entry per
 * command, `undefined` for a command that succeeded. Without `force`, `ip`
 * stops at the first command that fails, and the commands after it are
 * reported as not run. With `force` (`ip -force -batch`, for commands that do
 * not depend on each other) it goes on past failed commands; a word `ip`
 * cannot parse still ends it, with no line number, and then every command
 * after the last one reported is counted as failed.
 */
export async function ipBatchEach(commands: readonly (readonly string[])[], options: { netns?: string; force?: boolean } = {}): Promise<(Error | undefined)[]> {
  const { netns, force = false } = options;
  const input = batchLines(commands);
  const argv = ipIn(netns, ...(force ? ['-force'] : []), '-batch', '-');
  const result = await runCommand(argv, { stdin: input });
  const outcomes: (Error | undefined)[] = commands.map(() => undefined);
  if (result.code === 0) return outcomes;
  const exit = `exit ${result.code ?? 'signal'}`;
  // `ip` prints a command's message, then `Command failed -:LINE`.
  let message: string[] = [];
  let last = 0;
  for (const line of result.stderr.split('\n').map((l) => l.trim())) {
    const failed = /^Command failed -:(\d+)$/.exec(line);
    if (!failed) {
      if (line) message.push(line);
      continue;
    }
    const index = Number(failed[1]) - 1;
    if (index >= 0 && index < commands.length) outcomes[index] = new Error(`${shown(netns, commands[index]!)} failed (${exit}): ${message.join(' ') || 'no message'}`);
    message = [];
    last = Math.max(last, index + 1);
  }
  const rest = message.join(' ') || result.stdout.trim();
  for (let i = last; i < commands.length; i += 1) {
    if (!force && last > 0) outcomes[i] = new Error(`${shown(netns, commands[i]!)} was not run: ${shown(netns, commands[last - 1]!)} failed before it`);
    else if (!force || rest) outcomes[i] = new Error(`${shown(netns, commands[i]!)}: ip -batch stopped (${exit}): ${rest || 'no message'}`);
  }
  return outcomes;
}

/** `ipBatchEach` that throws the first failure: for commands that stand or fall together. */
export async function ipBatch(commands: readonly (readonly string[])[], netns?: string): Promise<void> {
  const failed = (await ipBatchEach(commands, netns !== undefined ? { netns } : {})).find((outcome) => outcome !== undefined);
  if (failed) throw failed;
}
