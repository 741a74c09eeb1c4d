/**
 * `congestionControl` on a container: Docker sets it when it makes the
 * container's network namespace (HostConfig.Sysctls, written by runc before
 * the container's process starts), so nothing in the container needs
 * privileges. The kernel only lets a namespace other than the machine's own
 * default to an algorithm in the root namespace's
 * `tcp_allowed_congestion_control`; with a dockerd on this machine the
 * plugin extends that list for the run exactly as the local lab does (shared
 * cloud-kit code, ledgered, restored at teardown).
 */
import type { Host, HostRequest, ProvisionContext } from '@netbench/plugin-api';
import { NetbenchError, UnsupportedError } from '@netbench/plugin-api';
import {
  allowCongestionControls,
  allowedCongestionControls,
  availableCongestionControls,
  CONGESTION_CONTROL_LABEL,
  readCongestionControl,
  runCommand,
  unavailableCongestionControl,
} from '@netbench/plugin-api/cloud-kit';
import type { DockerHostConfig } from './host-schema.js';

const SYSCTL = 'net.ipv4.tcp_congestion_control';

/** A daemon on another machine: its kernel, not ours, decides what a namespace may use. */
export const remoteDaemon = () => process.env.DOCKER_HOST !== undefined && !process.env.DOCKER_HOST.startsWith('unix://');

const wanting = (requests: readonly HostRequest<DockerHostConfig>[]) => requests.filter((r) => r.config.congestionControl !== undefined);

/** The container's sysctls at create. */
export function containerSysctls(config: DockerHostConfig): Record<string, string> | undefined {
  return config.congestionControl !== undefined ? { [SYSCTL]: config.congestionControl } : undefined;
}

/**
 * Before anything is made: no `network: host` container asks for it (the
 * schema says so too), the kernel has every algorithm loaded (containers
 * share this machine's modules), and an algorithm the root namespace does not
 * allow yet can be added (root). With a remote daemon none of this machine's
 * facts apply: its kernel judges at container start.
 */
export async function checkCongestionControl(requests: readonly HostRequest<DockerHostConfig>[]): Promise<void> {
  const asking = wanting(requests);
  if (asking.length === 0) return;
  const onHost = asking.filter((r) => r.config.network === 'host').map((r) => `host ${r.id}`);
  if (onHost.length > 0) {
    throw new UnsupportedError(
      `docker: ${onHost.join(', ')} sets congestionControl on network: host, where it would change this machine's default. To fix: use network: bridge (the default) or remove congestionControl.`,
    );
  }
  if (remoteDaemon()) return;
  const available = await availableCongestionControls((argv) => runCommand(argv));
  const problems = asking.flatMap((r) => unavailableCongestionControl(`docker: host ${r.id}`, r.config.congestionControl!, available) ?? []);
  if (problems.length > 0) throw new UnsupportedError(problems.join('\n'));
  const allowed = await allowedCongestionControls();
  const toAllow = asking.filter((r) => !allowed.includes(r.config.congestionControl!));
  if (toAllow.length > 0 && process.getuid?.() !== 0) {
    throw new UnsupportedError(
      `docker: ${toAllow.map((r) => `host ${r.id} (congestionControl ${r.config.congestionControl})`).join(', ')}: a container's network namespace may only use an algorithm in net.ipv4.tcp_allowed_congestion_control (${allowed.join(' ')}), and adding one needs root. To fix: run netbench as root, or add it yourself (sysctl -w net.ipv4.tcp_allowed_congestion_control="${[...allowed, ...toAllow.map((r) => r.config.congestionControl!)].join(' ')}").`,
    );
  }
}

/** At provision, before the containers: allow what they ask for (ledgered; teardown takes it out again). */
export async function allowForContainers(requests: readonly HostRequest<DockerHostConfig>[], ctx: ProvisionContext): Promise<void> {
  const asking = wanting(requests);
  if (asking.length === 0 || remoteDaemon()) return;
  await allowCongestionControls(
    'docker',
    asking.map((r) => r.config.congestionControl!),
    ctx,
  );
}

/** runc's refusal to write the sysctl, said with what decides it. */
export function explainStartFailure(request: HostRequest<DockerHostConfig>, error: unknown): unknown {
  const message = error instanceof Error ? error.message : String(error);
  if (request.config.congestionControl === undefined || !message.includes('tcp_congestion_control')) return error;
  return new UnsupportedError(
    `docker: host ${request.id}: the daemon could not set congestionControl ${request.config.congestionControl} in the container's network namespace (${message.trim().split('\n')[0]}). ` +
      "A namespace may only use an algorithm the kernel has loaded and the daemon's machine allows in net.ipv4.tcp_allowed_congestion_control. " +
      (remoteDaemon()
        ? `To fix: on the machine DOCKER_HOST names, load it and add it to that list (sysctl -w net.ipv4.tcp_allowed_congestion_control=...).`
        : 'To fix: modprobe tcp_NAME, or choose another algorithm.'),
    { cause: error },
  );
}

/**
 * What the container reports, as the host label (every container, asked or
 * not); a container that asked for an algorithm and reports another is an error.
 */
export async function labelCongestionControl(host: Pick<Host, 'exec'>, request: HostRequest<DockerHostConfig>, labels: Record<string, string>): Promise<void> {
  const now = await readCongestionControl((argv) => host.exec(argv, { timeoutMs: 15_000 }));
  const wanted = request.config.congestionControl;
  if (wanted !== undefined && now !== wanted) {
    throw new NetbenchError(`docker: host ${request.id}: asked for congestion control ${wanted}, but the container reports ${now ?? 'nothing'}`);
  }
  if (now !== undefined) labels[CONGESTION_CONTROL_LABEL] = now;
}
