/**
 * TCP congestion control as a host setting (`congestionControl: cubic`) and
 * a label read back from the host (`tcp_congestion_control`), for clouds that
 * can run commands on their hosts (the local lab's namespaces, static SSH hosts,
 * and the VMs the AWS, GCP and Azure plugins create).
 */

import { UnsupportedError } from '../errors/index.js';
import type { Host } from '../plugin/host.js';
import { z } from '../plugin/zod.js';

/** A kernel congestion-control module name: `cubic`, `bbr`, `reno`, `dctcp`, ... */
export const CONGESTION_CONTROL_RE = /^[a-z][a-z0-9_]{0,15}$/;

export const congestionControlSchema = z
  .string()
  .regex(CONGESTION_CONTROL_RE, { message: 'expected a congestion control algorithm such as cubic, bbr or reno' })
  .describe("TCP congestion control of the host's connections (net.ipv4.tcp_congestion_control), e.g. cubic, bbr, reno.");

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
  return (
    `${where}: congestionControl ${algorithm} is not available on this kernel (it has: ${available.join(', ')}). ` +
    `To fix: load it (modprobe tcp_${algorithm}) or choose one of those.`
  );
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
    throw new UnsupportedError(
      `${where}: sysctl -w net.ipv4.tcp_congestion_control=${algorithm} failed (${(result.stderr.trim() || `exit ${result.code}`).split('\n')[0]}); it needs root in the host's network namespace`,
    );
  }
  const now = await readCongestionControl(run);
  if (now !== algorithm) throw new UnsupportedError(`${where}: asked for congestion control ${algorithm}, but the host reports ${now ?? 'nothing'}`);
  return now;
}

/** The `congestionControl` field of a cloud VM's host block (AWS, GCP, Azure). */
export const vmCongestionControlSchema = congestionControlSchema.describe(
  'TCP congestion control of the VM (net.ipv4.tcp_congestion_control), set over SSH after boot (sudo sysctl -w, modprobe tcp_NAME first when not loaded), e.g. cubic or bbr. The VM is deleted with the run, so nothing is restored.',
);

/**
 * A VM netbench created and throws away with the run: make `wanted` its
 * default over the host's own transport, as root or with `sudo -n` for the
 * image's login user, loading the module first when the kernel has not
 * (`modprobe tcp_NAME`: bbr is a module on most images). Nothing to
 * restore. Returns what the host reports afterwards (the label); without
 * `wanted`, only what it reports. Throws `UnsupportedError` naming the host.
 */
export async function applyVmCongestionControl(run: HostCommand, wanted: string | undefined, where: string): Promise<string | undefined> {
  if (wanted === undefined) return readCongestionControl(run);
  if (!CONGESTION_CONTROL_RE.test(wanted)) throw new UnsupportedError(`${where}: ${JSON.stringify(wanted)} is not a congestion control name`);
  const uid = await run(['id', '-u']);
  // The image's login user (ubuntu, azureuser, ...) has passwordless sudo on cloud images; -n never waits for a password.
  const asRoot: HostCommand = uid.code === 0 && uid.stdout.trim() === '0' ? run : (argv) => run(['sudo', '-n', ...argv]);
  const available = await availableCongestionControls(run);
  if (available !== undefined && !available.includes(wanted)) {
    const loaded = await asRoot(['modprobe', `tcp_${wanted}`]);
    const now = await availableCongestionControls(run);
    if (!now?.includes(wanted)) {
      const why = (loaded.stderr.trim() || `exit ${loaded.code}`).split('\n')[0];
      throw new UnsupportedError(
        `${where}: congestionControl ${wanted} is not available (the kernel has: ${(now ?? available).join(', ')}; modprobe tcp_${wanted}: ${why}). To fix: choose one of those, or an image whose kernel has tcp_${wanted}.`,
      );
    }
  }
  // Reading /proc needs no root; only the change goes through sudo, so a refused sudo is reported as such.
  return setCongestionControl((argv) => (argv[0] === 'cat' ? run(argv) : asRoot(argv)), wanted, where);
}

/**
 * Right after connecting to a VM (provision or reattach): `applyVmCongestionControl`
 * over its transport, and what it reports put in `labels` — the object the
 * host was made with, so every sample carries it. On failure the connection
 * is closed and the error thrown (the engine then tears the run's resources down).
 */
export async function settleVmCongestionControl(host: Pick<Host, 'exec' | 'close'>, labels: Record<string, string>, wanted: string | undefined, where: string): Promise<void> {
  try {
    const now = await applyVmCongestionControl((argv) => host.exec(argv, { timeoutMs: 30_000 }), wanted, where);
    if (now !== undefined) labels[CONGESTION_CONTROL_LABEL] = now;
  } catch (error) {
    await host.close?.();
    throw error;
  }
}
