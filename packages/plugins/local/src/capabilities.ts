import { access, constants, readFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { runCommand } from '@netbench/plugin-api/cloud-kit';

export interface LocalCapabilities {
  /** Effective user id 0. */
  readonly root: boolean;
  /** Network namespaces can be made (CAP_NET_ADMIN + CAP_SYS_ADMIN, iproute2, /run/netns writable). */
  readonly netns: boolean;
  /** tc qdiscs the kernel has. */
  readonly tbf: boolean;
  readonly htb: boolean;
  readonly netem: boolean;
  /** One human-readable line per fact, for `netbench doctor` and error messages. */
  readonly detail: Record<string, string>;
}

const CAP_NET_ADMIN = 12n;
const CAP_SYS_ADMIN = 21n;

/** Effective capability set of this process, from /proc/self/status. */
export async function effectiveCapabilities(): Promise<bigint | undefined> {
  try {
    const status = await readFile('/proc/self/status', 'utf8');
    const match = /^CapEff:\s*([0-9a-f]+)$/m.exec(status);
    return match ? BigInt(`0x${match[1]}`) : undefined;
  } catch {
    return undefined;
  }
}

const hasCap = (set: bigint | undefined, bit: bigint) => set !== undefined && ((set >> bit) & 1n) === 1n;

/**
 * Try a qdisc on the loopback of a throw-away namespace (`unshare --net`):
 * the namespace vanishes with the process, so probing creates nothing.
 */
async function probeQdisc(args: readonly string[]): Promise<{ ok: boolean; detail: string }> {
  const result = await runCommand(['unshare', '--net', 'tc', 'qdisc', 'add', 'dev', 'lo', 'root', ...args], { timeoutMs: 10_000 });
  const message = (result.stderr.trim() || result.stdout.trim()).split('\n')[0] ?? '';
  if (result.code === 0) return { ok: true, detail: 'available' };
  return { ok: false, detail: message || `tc exited with ${result.code ?? 'a signal'}` };
}

async function canWriteNetnsDir(): Promise<boolean> {
  for (const dir of ['/run/netns', '/run']) {
    try {
      await access(dir, constants.W_OK);
      return true;
    } catch {
      // /run/netns may not exist yet; then `ip netns add` creates it under /run.
    }
  }
  return false;
}

/** What a namespace lab needs: root (or the capabilities), iproute2, a writable /run/netns. */
export type NamespaceCapabilities = Pick<LocalCapabilities, 'root' | 'netns' | 'detail'>;

/**
 * Where `name` would be found on PATH, as a spawn looks it up (an executable
 * file in the first directory that has one), without starting a process.
 */
export async function onPath(name: string, path = process.env.PATH ?? '/usr/bin:/bin'): Promise<string | undefined> {
  for (const dir of path.split(delimiter).filter(Boolean)) {
    const file = join(dir, name);
    if (
      await access(file, constants.X_OK).then(
        () => true,
        () => false,
      )
    )
      return file;
  }
  return undefined;
}

/**
 * `version`: ask `ip -V` for iproute2's version (for `netbench doctor`); a run
 * only needs to know `ip` is there, which a look on PATH tells without the
 * process (that spawn was on every run's path, alone).
 */
async function detectNamespaces(version: boolean): Promise<NamespaceCapabilities> {
  const detail: Record<string, string> = {};
  const root = process.geteuid?.() === 0;
  detail.root = root ? 'running as root' : `running as uid ${process.geteuid?.() ?? '?'}, not root`;

  // Three independent looks, at once.
  const iproute = async () => {
    if (!version) return onPath('ip').then((file) => (file !== undefined ? `iproute2 at ${file}` : undefined));
    const ip = await runCommand(['ip', '-V']);
    return ip.code === 0 ? ip.stdout.trim() : undefined;
  };
  const [caps, ip, writable] = await Promise.all([effectiveCapabilities(), iproute(), canWriteNetnsDir()]);
  const netAdmin = hasCap(caps, CAP_NET_ADMIN);
  const sysAdmin = hasCap(caps, CAP_SYS_ADMIN);
  const missingCaps = [netAdmin ? '' : 'CAP_NET_ADMIN', sysAdmin ? '' : 'CAP_SYS_ADMIN'].filter(Boolean);

  let netns = false;
  if (missingCaps.length > 0) detail.netns = `missing ${missingCaps.join(' and ')} (effective capabilities ${caps?.toString(16) ?? 'unknown'})`;
  else if (ip === undefined) detail.netns = 'iproute2 (`ip`) is not installed';
  else if (!writable) detail.netns = '/run/netns is not writable';
  else {
    netns = true;
    detail.netns = `available (${ip})`;
  }
  return { root, netns, detail };
}

async function detectQdiscs(base: NamespaceCapabilities): Promise<LocalCapabilities> {
  const detail: Record<string, string> = { ...base.detail };
  const qdisc = async (name: string, args: readonly string[]) => {
    if (!base.netns) {
      detail[name] = 'unknown: needs network namespaces to probe';
      return false;
    }
    const probe = await probeQdisc(args);
    detail[name] = probe.ok ? 'available' : name === 'netem' ? `this kernel has no sch_netem (tc: ${probe.detail})` : `unavailable (${probe.detail})`;
    return probe.ok;
  };
  const [tbf, htb, netem] = await Promise.all([
    qdisc('tbf', ['tbf', 'rate', '1mbit', 'burst', '32kbit', 'latency', '50ms']),
    qdisc('htb', ['handle', '1:', 'htb', 'default', '1']),
    qdisc('netem', ['netem', 'delay', '1ms']),
  ]);
  return { ...base, tbf, htb, netem, detail };
}

let namespaces: Promise<NamespaceCapabilities> | undefined;
let cached: Promise<LocalCapabilities> | undefined;

/**
 * Whether this machine can make namespaces. Probed once per process; creates
 * nothing. A lab without shaped links needs no more than this, so it does
 * not pay for the qdisc probes (three throw-away namespaces).
 */
export function namespaceCapabilities(): Promise<NamespaceCapabilities> {
  namespaces ??= detectNamespaces(false);
  return namespaces;
}

/** What this machine lets the local lab do, qdiscs and iproute2's version included. Probed once per process; creates nothing. */
export function localCapabilities(): Promise<LocalCapabilities> {
  cached ??= detectNamespaces(true).then(detectQdiscs);
  return cached;
}
