import { availableParallelism } from 'node:os';
import type { Host, HostRequest } from '@netbench/plugin-api';
import { NetbenchError, processHost } from '@netbench/plugin-api';
import { CONGESTION_CONTROL_LABEL, linkLabels, readCongestionControl, runCommand, setCongestionControl } from '@netbench/plugin-api/cloud-kit';
import type { LocalHostConfig } from './host-schema.js';
import { SSH_PORT } from './sshd.js';

export const PLUGIN_NAME = 'local';

/** The id every namespace host's installer shares, so the engine installs on the root filesystem one tool at a time. */
export const ROOT_INSTALLER_ID = 'local-root-namespace';

export interface NamespaceHostParts {
  readonly request: HostRequest<LocalHostConfig>;
  readonly netns: string;
  readonly address: string;
  readonly os: string | undefined;
  readonly onSpawn: (pid: number) => void;
  /** The sshd's client files, when the host runs one. */
  readonly ssh?: { readonly clientKey: string; readonly knownHosts: string };
  /**
   * `set` at provision: make the requested congestion control the namespace's
   * default. `verify` when a later invocation finds the host again: the
   * namespace must still report what the spec asks for. Or what
   * `namespaceCongestionControl` already found (provision asks while the
   * namespace's addresses are set up).
   */
  readonly congestionControl: CongestionControlMode | { readonly label: string | undefined };
}

export type CongestionControlMode = 'set' | 'verify';

/**
 * The namespace's own TCP default, as it reports it: set first to what the
 * spec asks for (`set`; it dies with the namespace, so nothing to restore),
 * or checked against it (`verify`). Needs only the namespace, not its
 * addresses; setting needs the algorithm allowed for namespaces first.
 */
export async function namespaceCongestionControl(request: HostRequest<LocalHostConfig>, netns: string, mode: CongestionControlMode): Promise<string | undefined> {
  const inNamespace = (argv: readonly string[]) => runCommand(['ip', 'netns', 'exec', netns, ...argv]);
  const wanted = request.config.congestionControl;
  const where = `local: host ${request.id}`;
  const cc = wanted !== undefined && mode === 'set' ? await setCongestionControl(inNamespace, wanted, where) : await readCongestionControl(inNamespace);
  if (wanted !== undefined && cc !== wanted)
    throw new NetbenchError(`${where}: namespace ${netns} now uses congestion control ${cc ?? 'unknown'}, the spec sets ${wanted}: it was changed since provision`);
  return cc;
}

/**
 * A namespace host as tools see it. Provision and reattach both build it
 * here, so a host found again by a later invocation carries exactly the
 * labels (and installer) it had when it was made: samples of a staged run
 * are keyed like those of a run in one invocation.
 */
export async function namespaceHost(parts: NamespaceHostParts): Promise<Host> {
  const { request, netns, address, os, onSpawn, ssh } = parts;
  // Namespaces share this machine's CPUs: their count decides how much CPU placement matters (host_<role>_cpu_count).
  const labels: Record<string, string> = { isolation: 'netns', netns, cpu_count: String(availableParallelism()), ...linkLabels(request.config.link) };
  // The label is what the namespace reports.
  const mode = parts.congestionControl;
  const cc = typeof mode === 'object' ? mode.label : await namespaceCongestionControl(request, netns, mode);
  if (cc !== undefined) labels[CONGESTION_CONTROL_LABEL] = cc;
  if (ssh) Object.assign(labels, { ssh_port: String(SSH_PORT), ssh_user: 'root', ssh_key: ssh.clientKey, ssh_known_hosts: ssh.knownHosts });
  // The namespace has no route or DNS, but shares this machine's filesystem: packages go in from the root namespace.
  const installHost = processHost({
    id: ROOT_INSTALLER_ID,
    name: `${request.name} (root namespace)`,
    cloud: PLUGIN_NAME,
    zone: 'local',
    machineType: 'root-netns',
    internalIp: '127.0.0.1',
    os,
    onSpawn,
  });
  return processHost({
    id: request.id,
    name: request.name,
    cloud: PLUGIN_NAME,
    zone: 'local',
    machineType: 'netns',
    internalIp: address,
    os,
    labels,
    prefix: ['ip', 'netns', 'exec', netns],
    installHost,
    onSpawn,
  });
}
