import type { ExecOptions, ExecResult, Host } from '../plugin/host.js';

/** An exec result, or `missing` when the program could not be started at all. */
export type CommandOutcome = ExecResult | { readonly missing: true; readonly detail: string };

// `ip netns exec` reports `exec of "x" failed: No such file or directory` with code 1; shells and env use 127.
const NOT_FOUND_RE = /No such file or directory|command not found|: not found/;

/**
 * Run a command on a host, folding every way "this program is not there"
 * shows up (spawn ENOENT, exit 127, a prefix's exec failure) into `missing`.
 */
export async function runOnHost(host: Host, argv: readonly string[], options: ExecOptions): Promise<CommandOutcome> {
  let result: ExecResult;
  try {
    result = await host.exec(argv, options);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { missing: true, detail: `${argv[0]}: not found` };
    throw error;
  }
  if (result.code === 127 || (result.code !== 0 && result.stdout.trim() === '' && NOT_FOUND_RE.test(result.stderr))) {
    return { missing: true, detail: result.stderr.trim() || `${argv[0]}: not found` };
  }
  return result;
}

export function isMissing(outcome: CommandOutcome): outcome is { readonly missing: true; readonly detail: string } {
  return 'missing' in outcome;
}

/** Whether commands on the host run as root (`id -u` is 0). Unknown counts as not root. */
export async function isRoot(host: Host, options: ExecOptions): Promise<boolean> {
  const outcome = await runOnHost(host, ['id', '-u'], options);
  return !isMissing(outcome) && outcome.code === 0 && outcome.stdout.trim() === '0';
}
