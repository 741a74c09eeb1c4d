import { splitSections } from './read-counters.js';

/**
 * What decides a host's network results besides the network: read once per
 * host per run, recorded with the run, and compared between runs. One
 * process on the host (`sh`; `head` over the files, then a few small reads).
 */
export interface HostFingerprint {
  readonly kernel?: string;
  /** The boot's id: hosts with the same one share a machine (its CPUs, its memory). */
  readonly machine?: string;
  readonly cpuModel?: string;
  readonly cpuCount?: number;
  readonly governor?: string;
  /** `hypervisor` when the CPU says it runs under one; the DMI vendor/product when the machine has them. */
  readonly virtualization?: string;
  readonly congestionControl?: string;
  readonly defaultQdisc?: string;
  /** Key sysctls as the kernel prints them (`net.core.rmem_max`, `net.ipv4.tcp_rmem`, busy polling, …). */
  readonly sysctls: Readonly<Record<string, string>>;
  readonly interfaces: readonly { readonly name: string; readonly mtu?: number; readonly driver?: string; readonly numaNode?: number; readonly qdisc?: string }[];
  /** Offloads of the interface the traffic uses (`ethtool -k`), when ethtool is there. */
  readonly offloads?: Readonly<Record<string, string>>;
}

const SYSCTLS = [
  'net/core/rmem_max',
  'net/core/wmem_max',
  'net/core/rmem_default',
  'net/core/wmem_default',
  'net/ipv4/tcp_rmem',
  'net/ipv4/tcp_wmem',
  'net/core/busy_poll',
  'net/core/busy_read',
  'net/core/netdev_max_backlog',
  'net/ipv4/tcp_mtu_probing',
  'net/ipv4/tcp_window_scaling',
  'net/ipv4/tcp_timestamps',
  'net/ipv4/tcp_sack',
];
const FILES = [
  '/proc/sys/kernel/osrelease',
  '/proc/sys/kernel/random/boot_id',
  '/proc/sys/net/ipv4/tcp_congestion_control',
  '/proc/sys/net/core/default_qdisc',
  '/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor',
  '/sys/class/dmi/id/sys_vendor',
  '/sys/class/dmi/id/product_name',
  ...SYSCTLS.map((s) => `/proc/sys/${s}`),
];

const SCRIPT = [
  `head -v -n 5 -- ${FILES.join(' ')} 2>/dev/null`,
  'echo; echo "==> cpuinfo <=="; grep -m1 "^model name" /proc/cpuinfo; echo "processors $(grep -c ^processor /proc/cpuinfo)"; grep -qw hypervisor /proc/cpuinfo && echo hypervisor',
  'for i in /sys/class/net/*; do echo; echo "==> net ${i##*/} <=="; echo "mtu $(cat "$i/mtu" 2>/dev/null)"; echo "driver $(readlink "$i/device/driver" 2>/dev/null)"; echo "numa $(cat "$i/device/numa_node" 2>/dev/null)"; done',
  'echo; echo "==> qdisc <=="; tc -j qdisc show 2>/dev/null',
  'echo; echo "==> ethtool <=="; if [ -n "$1" ] && command -v ethtool >/dev/null; then ethtool -k "$1" 2>/dev/null; fi',
  'true',
].join('\n');

/** The argv that reads a fingerprint; `iface` (a name the caller checked) adds its offloads. */
export function fingerprintArgv(iface?: string): string[] {
  return ['sh', '-c', SCRIPT, 'netbench-fingerprint', iface ?? ''];
}

const OFFLOADS = ['tcp-segmentation-offload', 'generic-segmentation-offload', 'generic-receive-offload', 'large-receive-offload'];

export function parseFingerprint(output: string): HostFingerprint {
  const part = splitSections(output);
  const file = (path: string) => part.get(path)?.split('\n')[0]?.trim() || undefined;
  const cpuinfo = part.get('cpuinfo') ?? '';
  const count = /^processors (\d+)$/m.exec(cpuinfo)?.[1];
  const vendor = [file('/sys/class/dmi/id/sys_vendor'), file('/sys/class/dmi/id/product_name')].filter(Boolean).join(' ');
  const qdiscs = (() => {
    try {
      const parsed = JSON.parse(part.get('qdisc') || '[]') as { dev?: string; kind?: string; root?: boolean }[];
      return Array.isArray(parsed) ? parsed : [];
    } catch {
      return [];
    }
  })();
  const interfaces = [...part.keys()]
    .filter((k) => k.startsWith('net '))
    .map((key) => {
      const name = key.slice(4);
      const text = part.get(key)!;
      const value = (field: string) => new RegExp(`^${field} (.+)$`, 'm').exec(text)?.[1]?.trim();
      const mtu = Number(value('mtu'));
      const numa = Number(value('numa'));
      const driver = value('driver')?.split('/').pop();
      const qdisc = qdiscs.find((q) => q.dev === name && q.root)?.kind;
      return {
        name,
        ...(Number.isFinite(mtu) && mtu > 0 ? { mtu } : {}),
        ...(driver ? { driver } : {}),
        ...(Number.isInteger(numa) && numa >= 0 && value('numa') !== undefined ? { numaNode: numa } : {}),
        ...(qdisc ? { qdisc } : {}),
      };
    });
  const offloads = Object.fromEntries(
    OFFLOADS.flatMap((name) => {
      const m = new RegExp(`^${name}: (\\w+)`, 'm').exec(part.get('ethtool') ?? '');
      return m ? [[name, m[1]!]] : [];
    }),
  );
  const sysctls = Object.fromEntries(
    SYSCTLS.flatMap((s) => {
      const v = file(`/proc/sys/${s}`);
      return v === undefined ? [] : [[s.replaceAll('/', '.'), v.replace(/\s+/g, ' ')]];
    }),
  );
  const model = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim();
  const virtualization = vendor || (/^hypervisor$/m.test(cpuinfo) ? 'hypervisor' : undefined);
  const optional = {
    kernel: file('/proc/sys/kernel/osrelease'),
    machine: file('/proc/sys/kernel/random/boot_id'),
    cpuModel: model,
    cpuCount: count === undefined ? undefined : Number(count),
    governor: file('/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor'),
    virtualization,
    congestionControl: file('/proc/sys/net/ipv4/tcp_congestion_control'),
    defaultQdisc: file('/proc/sys/net/core/default_qdisc'),
    offloads: Object.keys(offloads).length > 0 ? offloads : undefined,
  };
  return { ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined)), sysctls, interfaces } as HostFingerprint;
}

/** What differs between two fingerprints of the same host role, as `field: a → b` lines (`compare` shows them). */
export function fingerprintChanges(a: HostFingerprint, b: HostFingerprint): string[] {
  const flat = (f: HostFingerprint): Map<string, string> => {
    const out = new Map<string, string>();
    for (const key of ['kernel', 'cpuModel', 'cpuCount', 'governor', 'virtualization', 'congestionControl', 'defaultQdisc'] as const)
      if (f[key] !== undefined) out.set(key, String(f[key]));
    for (const [k, v] of Object.entries(f.sysctls)) out.set(k, v);
    for (const i of f.interfaces) for (const [k, v] of Object.entries(i)) if (k !== 'name') out.set(`${i.name}.${k}`, String(v));
    for (const [k, v] of Object.entries(f.offloads ?? {})) out.set(`offload.${k}`, v);
    return out;
  };
  const [x, y] = [flat(a), flat(b)];
  return [...new Set([...x.keys(), ...y.keys()])].sort().flatMap((key) => (x.get(key) === y.get(key) ? [] : [`${key}: ${x.get(key) ?? '—'} → ${y.get(key) ?? '—'}`]));
}
