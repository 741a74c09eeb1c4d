import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Whether this machine can run the lab's userspace tunnels: root, TUN, and the daemons. */
export function canRunTunnels(): boolean {
  if (process.getuid?.() !== 0 || !existsSync('/dev/net/tun')) return false;
  return (
    ['wireguard-go', 'wg', 'openvpn', 'openssl', 'swanctl', 'unshare', 'setsid'].every(onPath) &&
    existsSync('/usr/lib/ipsec/charon') &&
    existsSync('/usr/lib/ipsec/plugins/libstrongswan-kernel-libipsec.so') &&
    existsSync('/usr/lib/ipsec/plugins/libstrongswan-gcm.so')
  );
}

function onPath(program: string): boolean {
  try {
    execFileSync('sh', ['-c', 'command -v "$1"', 'sh', program], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Everything of a run's tunnels still on this machine: its key directory in
 * /dev/shm, WireGuard sockets, and live processes whose command line or
 * environment names the run's tunnel directory or interfaces (charon's only
 * trace is STRONGSWAN_CONF in its environment).
 */
export function tunnelLeftovers(runId: string, tunnels: readonly string[] = ['ipsec', 'wg', 'ovpn']): string[] {
  const root = `/dev/shm/netbench-${runId}`;
  const left: string[] = [];
  if (existsSync(root)) left.push(root);
  // wireguard-go's UAPI sockets live outside the run's directory (a fixed path named after the interface).
  for (const name of tunnels) {
    for (const side of ['a', 'b']) {
      const sock = `/var/run/wireguard/${tunnelIface(runId, 'w', name, side)}.sock`;
      if (existsSync(sock)) left.push(sock);
    }
  }
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      if (/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'))) continue;
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      const environ = readFileSync(`/proc/${pid}/environ`, 'utf8');
      if (cmdline.includes(root) || environ.includes(`STRONGSWAN_CONF=${root}`)) left.push(`process ${pid}: ${cmdline.trim()}`);
    } catch {
      // gone meanwhile
    }
  }
  return left;
}

/** Interfaces of the lab namespaces whose names are tunnel interfaces (`nb` + w/i/o + tag). */
export function tunnelLinks(namespaces: readonly string[]): string[] {
  return namespaces.flatMap((ns) => {
    const out = execFileSync('ip', ['-n', ns, '-o', 'link', 'show'], { encoding: 'utf8' });
    return out
      .split('\n')
      .map((line) => line.split(': ')[1]?.split('@')[0] ?? '')
      .filter((name) => /^nb[wio][0-9a-f]{8}[ab]$|^ipsec\d+$/.test(name))
      .map((name) => `${ns}/${name}`);
  });
}

/** The interface name netbench gives a tunnel end (docs/tunnels.md): `nb` + type letter + 8 hex of run and tunnel + side. */
export function tunnelIface(runId: string, typeLetter: 'i' | 'w' | 'o', tunnel: string, side: string): string {
  return `nb${typeLetter}${createHash('sha256').update(`${runId}\u0000${tunnel}`).digest('hex').slice(0, 8)}${side}`;
}

/**
 * What a tunnel can leave inside a network namespace that outlives the run
 * (an SSH host's): tunnel and TUN interfaces, policy-routing rules and routes
 * outside the main table (charon installs table 220 and a rule for it), XFRM
 * states and policies (SAs), and iptables rules. Empty when nothing is left.
 */
export function namespaceTunnelState(ns: string): string[] {
  const inNs = (argv: string[]) => {
    const r = spawnSync('ip', ['netns', 'exec', ns, ...argv], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${argv.join(' ')} in ${ns} failed: ${r.stderr}`);
    return r.stdout
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
  };
  const links = inNs(['ip', '-o', 'link', 'show'])
    .map((l) => l.split(': ')[1]?.split('@')[0] ?? '')
    .filter((n) => /^nb[wio][0-9a-f]{8}[ab]$|^ipsec\d+$|^tun\d+$/.test(n));
  // A fresh namespace has exactly the rules of priority 0 (local), 32766 (main) and 32767 (default).
  const rules = inNs(['ip', 'rule', 'show']).filter((r) => !/^(0|32766|32767):/.test(r));
  const routes = inNs(['ip', 'route', 'show', 'table', 'all']).filter((r) => / table /.test(r) && !/ table (local|main|default)\b/.test(r));
  const xfrm = [...inNs(['ip', 'xfrm', 'state', 'list']), ...inNs(['ip', 'xfrm', 'policy', 'list'])];
  const iptables = onPath('iptables-save') ? inNs(['iptables-save']).filter((l) => l.startsWith('-A ')) : [];
  return [
    ...links.map((l) => `link ${l}`),
    ...rules.map((r) => `rule ${r}`),
    ...routes.map((r) => `route ${r}`),
    ...xfrm.map((x) => `xfrm ${x}`),
    ...iptables.map((i) => `iptables ${i}`),
  ];
}

/** Files under `dir` (recursively) whose content contains one of the secrets: key material must be in none of them. */
export function filesContaining(dir: string, secrets: readonly string[]): string[] {
  const hits: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d)) {
      const path = join(d, entry);
      const stat = statSync(path);
      if (stat.isDirectory()) walk(path);
      else if (stat.isFile()) {
        const text = readFileSync(path).toString('latin1');
        for (const secret of secrets) if (text.includes(secret)) hits.push(`${path} holds ${secret.slice(0, 6)}…`);
      }
    }
  };
  walk(dir);
  return hits;
}

/**
 * The key material of a running run's tunnel ends, read from their private
 * directories: WireGuard private keys, the IPsec pre-shared key, the OpenVPN
 * TLS keys (base64 body lines) — what the test then looks for in the run's files.
 */
export function tunnelSecrets(runId: string): string[] {
  const root = `/dev/shm/netbench-${runId}`;
  const secrets: string[] = [];
  for (const end of readdirSync(root)) {
    const dir = join(root, end);
    const read = (file: string) => (existsSync(join(dir, file)) ? readFileSync(join(dir, file), 'utf8') : '');
    const wg = read('private.key').trim();
    if (wg) secrets.push(wg);
    const psk = /secret = 0x([0-9a-f]+)/.exec(read('swanctl.conf'))?.[1];
    if (psk) secrets.push(psk);
    // Base64 lines of the PEM body; the header alone says nothing secret.
    secrets.push(
      ...read('tls.key')
        .split('\n')
        .filter((l) => /^[A-Za-z0-9+/=]{40,}$/.test(l)),
    );
  }
  return secrets;
}
