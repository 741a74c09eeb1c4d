import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';

/**
 * What a kubelet and its container runtime do with a pod's
 * `spec.securityContext.sysctls`, for the stand-in API server:
 * - admission (kubelet's sysctl allowlist, pkg/kubelet/sysctl): a sysctl
 *   outside the safe set and the kubelet's `--allowed-unsafe-sysctls` makes
 *   the kubelet reject the pod: phase Failed, reason `SysctlForbidden`,
 *   message `Pod was rejected: forbidden sysctl: "NAME" not allowlisted`;
 * - the runtime writes allowed `net.*` sysctls into the pod's own network
 *   namespace. A stand-in pod is a set of local processes, so a pod with net
 *   sysctls gets a network namespace of its own here (`ip netns add`, root
 *   only), the sysctls written there with `sysctl -w` (the kernel judges, as
 *   for runc), and its execs run inside it (`ip netns exec`). Such a pod
 *   reaches only itself: it exists to check that a pod gets what it asked for.
 */

type Json = Record<string, any>;

/** The kubelet's safe sysctls (namespaced, isolated), as of Kubernetes 1.29+. */
export const SAFE_SYSCTLS = [
  'kernel.shm_rmid_forced',
  'net.ipv4.ip_local_port_range',
  'net.ipv4.tcp_syncookies',
  'net.ipv4.ping_group_range',
  'net.ipv4.ip_unprivileged_port_start',
  'net.ipv4.ip_local_reserved_ports',
  'net.ipv4.tcp_keepalive_time',
  'net.ipv4.tcp_fin_timeout',
  'net.ipv4.tcp_keepalive_intvl',
  'net.ipv4.tcp_keepalive_probes',
];

export const sysctlsOf = (pod: Json): { name: string; value: string }[] => pod['spec']?.securityContext?.sysctls ?? [];

/** The kubelet's admission: the rejection message, or undefined when the pod may run. */
export function forbiddenSysctl(pod: Json, allowedUnsafe: readonly string[]): string | undefined {
  const bad = sysctlsOf(pod).find((s) => !SAFE_SYSCTLS.includes(s.name) && !allowedUnsafe.some((a) => a === s.name || (a.endsWith('*') && s.name.startsWith(a.slice(0, -1)))));
  return bad ? `Pod was rejected: forbidden sysctl: "${bad.name}" not allowlisted` : undefined;
}

/** Per-pod network namespaces for pods whose net sysctls the runtime must apply. */
export class PodSandboxes {
  private readonly namespaces = new Map<string, string>();

  /** Make the pod's namespace and write its net sysctls; the kernel's refusal is returned as the runtime's error. */
  create(podKey: string, pod: Json): string | undefined {
    const net = sysctlsOf(pod).filter((s) => s.name.startsWith('net.'));
    if (net.length === 0 || pod['spec']?.hostNetwork) return undefined;
    const name = `nbk8s-${randomBytes(4).toString('hex')}`;
    const run = (argv: string[]) => spawnSync(argv[0]!, argv.slice(1), { encoding: 'utf8' });
    const made = run(['ip', 'netns', 'add', name]);
    if (made.status !== 0) return `the stand-in cannot make a network namespace for the pod's sysctls (it needs root): ${made.stderr.trim()}`;
    this.namespaces.set(podKey, name);
    run(['ip', '-n', name, 'link', 'set', 'lo', 'up']);
    for (const s of net) {
      const set = run(['ip', 'netns', 'exec', name, 'sysctl', '-w', `${s.name}=${s.value}`]);
      // runc's words for it: the pod sandbox is never made.
      if (set.status !== 0)
        return `failed to create pod sandbox: runc create failed: write /proc/sys/${s.name.replaceAll('.', '/')}: ${set.stderr.trim().replace(/^sysctl: /, '')}`;
    }
    return undefined;
  }

  /** The argv as the pod's processes run it. */
  wrap(podKey: string, argv: string[]): string[] {
    const name = this.namespaces.get(podKey);
    return name ? ['ip', 'netns', 'exec', name, ...argv] : argv;
  }

  remove(podKey: string): void {
    const name = this.namespaces.get(podKey);
    if (!name) return;
    spawnSync('ip', ['netns', 'del', name]);
    this.namespaces.delete(podKey);
  }

  removeAll(): void {
    for (const key of [...this.namespaces.keys()]) this.remove(key);
  }
}
