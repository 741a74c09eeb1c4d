/**
 * TCP congestion control as a host setting (`congestionControl: cubic`) and
 * a label read back from the host (`tcp_congestion_control`), for clouds that
 * can run commands on their hosts (the local lab's namespaces, static SSH hosts).
 */
import { z } from 'zod';
import { UnsupportedError } from '../errors/index.js';

/** A kernel congestion-control module name: `cubic`, `bbr`, `reno`, `dctcp`, ... */
export const CONGESTION_CONTROL_RE = /^[a-z][a-z0-9_]{0,15}$/;

export const congestionControlSchema = z
  .string()
  .regex(CONGESTION_CONTROL_RE, { message: 'expected a congestion control algorithm such as cubic, bbr or reno' })
  .describe('TCP congestion control of the host\'s connections (net.ipv4.tcp_congestion_control), e.g. cubic, bbr, reno.');

/** The sample label that carries what the host uses (read back, not the request). */
export const CONGESTION_CONTROL_LABEL = 'tcp_congestion_control';

/** Runs an argv on the host (in its namespace, over its SSH connection, ...). */
export type HostCommand = (argv: readonly string[]) => Promise<{ readonly code: number | null; readonly stdout: string; readonly stderr: string }>;

const CURRENT = '/proc/sys/net/ipv4/tcp_congestion_control';
const AVAILABLE = '/proc/sys/net/ipv4/tcp_available_congestion_control';

async function readProc(run: HostCommand, path: string): Promise<string | undefined> {
  const result = await run(['cat', path]);
  const text = result.stdout.trim();
  return result.code === 0 && text !== '' ? text : undefined;
}

/** The host's default congestion control now; undefined where it cannot be read (not Linux, no /proc). */
export function readCongestionControl(run: HostCommand): Promise<string | undefined> {
  return readProc(run, CURRENT);
}

/** Algorithms the host's kernel has loaded; undefined where it cannot be read. */
export async function availableCongestionControls(run: HostCommand): Promise<string[] | undefined> {
  return (await readProc(run, AVAILABLE))?.split(/\s+/);
}

/** Why `algorithm` cannot be used with `available` (the kernel's list), or undefined. `where` names the host. */
export function unavailableCongestionControl(where: string, algorithm: string, available: readonly string[] | undefined): string | undefined {
  if (available === undefined) return `${where}: congestionControl ${algorithm}: cannot read ${AVAILABLE} (not Linux?)`;
  if (available.includes(algorithm)) return undefined;
  return `${where}: congestionControl ${algorithm} is not available on this kernel (it has: ${available.join(', ')}). ` +
    `To fix: load it (modprobe tcp_${algorithm}) or choose one of those.`;
}

/**
 * Make `algorithm` the default of the host's network namespace
 * (`sysctl -w net.ipv4.tcp_congestion_control=...`), after checking the
 * kernel has it, and return what the host reports afterwards.
 */
export async function setCongestionControl(run: HostCommand, algorithm: string, where: string): Promise<string> {
  if (!CONGESTION_CONTROL_RE.test(algorithm)) throw new UnsupportedError(`${where}: ${JSON.stringify(algorithm)} is not a congestion control name`);
  const problem = unavailableCongestionControl(where, algorithm, await availableCongestionControls(run));
  if (problem !== undefined) throw new UnsupportedError(problem);
  const result = await run(['sysctl', '-w', `net.ipv4.tcp_congestion_control=${algorithm}`]);
  if (result.code !== 0) {
    throw new UnsupportedError(`${where}: sysctl -w net.ipv4.tcp_congestion_control=${algorithm} failed (${(result.stderr.trim() || `exit ${result.code}`).split('\n')[0]}); it needs root in the host's network namespace`);
  }
  const now = await readCongestionControl(run);
  if (now !== algorithm) throw new UnsupportedError(`${where}: asked for congestion control ${algorithm}, but the host reports ${now ?? 'nothing'}`);
  return now;
}
