import type { HostProcess } from '../plugin/host.js';

/**
 * Spawn a flow's measuring process *before* the barrier, held at a gate:
 * a POSIX `sh` waits for one line on standard input, then `exec`s `argv`
 * (passed as positional arguments, never pasted into the script). Opening
 * the gates of all flows at the barrier starts them within a write each,
 * instead of a process start (`ip netns exec`, an SSH channel) each.
 * Closing a gate without opening it (`shutGate`) makes the shell exit 1
 * without running anything.
 */
export function gatedArgv(argv: readonly string[]): string[] {
  return ['sh', '-c', 'read -r _ && exec "$@"', 'netbench-gate', ...argv];
}

/** Start the gated process now. */
export function openGate(process: HostProcess): void {
  process.stdin.end('\n');
}

/** Let the gated process exit without running its command. */
export function shutGate(process: HostProcess): void {
  process.stdin.end();
}
