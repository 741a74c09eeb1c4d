import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** Whether this machine can run the lab's userspace tunnels: root, TUN, and the daemons. */
export function canRunTunnels(): boolean {
  if (process.getuid?.() !== 0 || !existsSync('/dev/net/tun')) return false;
  return ['wireguard-go', 'wg', 'openvpn', 'openssl', 'swanctl', 'unshare', 'setsid'].every(onPath) && existsSync('/usr/lib/ipsec/charon')
    && existsSync('/usr/lib/ipsec/plugins/libstrongswan-kernel-libipsec.so');
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
export function tunnelLeftovers(runId: string): string[] {
  const root = `/dev/shm/netbench-${runId}`;
  const left: string[] = [];
  if (existsSync(root)) left.push(root);
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
    return out.split('\n').map((line) => line.split(': ')[1]?.split('@')[0] ?? '').filter((name) => /^nb[wio][0-9a-f]{8}[ab]$|^ipsec\d+$/.test(name)).map((name) => `${ns}/${name}`);
  });
}
