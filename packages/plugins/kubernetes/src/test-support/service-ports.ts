import { spawnSync } from 'node:child_process';

interface ServicePort {
  readonly port: number;
  readonly protocol?: string;
}

const run = (argv: string[]) => spawnSync(argv[0]!, argv.slice(1), { encoding: 'utf8' });

/** `[5201, 5202, 5203, 20000]` → `['5201:5203', '20000']`, at most 7 ranges per rule (multiport takes 15 entries, a range counts 2). */
function portGroups(ports: readonly number[]): string[][] {
  const sorted = [...new Set(ports)].sort((a, b) => a - b);
  const ranges: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    ranges.push(i === j ? String(sorted[i]) : `${sorted[i]}:${sorted[j]}`);
    i = j + 1;
  }
  const groups: string[][] = [];
  for (let i = 0; i < ranges.length; i += 7) groups.push(ranges.slice(i, i + 7));
  return groups;
}

/**
 * What kube-proxy does for a ClusterIP Service, for the stand-in's cluster
 * IPs (127.0.30.x, on this machine's loopback): only the ports the Service
 * lists reach the pod; a connection to any other port of the cluster IP is
 * refused (iptables, a chain of the stand-in's own). A real cluster drops such
 * packets, so there the connection times out; here it fails at once.
 * Needs root (iptables); `enforced` says whether it is on, `why` why not.
 */
export class ServicePortRules {
  readonly enforced: boolean;
  readonly why?: string;
  private readonly chain = `NBK8S-${process.pid}`;
  private readonly services = new Map<string, string>();
  private count = 0;

  constructor(clusterCidr: string) {
    const made = run(['iptables', '-w', '-N', this.chain]);
    if (made.error || made.status !== 0) {
      this.enforced = false;
      this.why = `iptables: ${made.error?.message ?? made.stderr.trim()}`;
      return;
    }
    const jump = run(['iptables', '-w', '-I', 'OUTPUT', '-d', clusterCidr, '-j', this.chain]);
    this.enforced = jump.status === 0;
    if (!this.enforced) this.why = `iptables: ${jump.stderr.trim()}`;
    this.cidr = clusterCidr;
  }

  private cidr = '';

  /** From now on only `ports` of `ip` are forwarded. */
  add(ip: string, ports: readonly ServicePort[]): void {
    if (!this.enforced) return;
    const chain = `${this.chain}-${++this.count}`;
    run(['iptables', '-w', '-N', chain]);
    for (const protocol of ['tcp', 'udp'] as const) {
      const listed = ports.filter((p) => (p.protocol ?? 'TCP').toLowerCase() === protocol).map((p) => p.port);
      for (const group of portGroups(listed)) run(['iptables', '-w', '-A', chain, '-p', protocol, '-m', 'multiport', '--dports', group.join(','), '-j', 'RETURN']);
      run(['iptables', '-w', '-A', chain, '-p', protocol, '-j', 'REJECT', '--reject-with', protocol === 'tcp' ? 'tcp-reset' : 'icmp-port-unreachable']);
    }
    run(['iptables', '-w', '-A', this.chain, '-d', ip, '-j', chain]);
    this.services.set(ip, chain);
  }

  /** The Service is gone: its cluster IP forwards nothing of it any more. */
  remove(ip: string): void {
    const chain = this.services.get(ip);
    if (!chain) return;
    run(['iptables', '-w', '-D', this.chain, '-d', ip, '-j', chain]);
    run(['iptables', '-w', '-F', chain]);
    run(['iptables', '-w', '-X', chain]);
    this.services.delete(ip);
  }

  /** Every rule and chain of this stand-in removed. */
  close(): void {
    for (const ip of [...this.services.keys()]) this.remove(ip);
    if (this.cidr !== '') run(['iptables', '-w', '-D', 'OUTPUT', '-d', this.cidr, '-j', this.chain]);
    run(['iptables', '-w', '-F', this.chain]);
    run(['iptables', '-w', '-X', this.chain]);
  }
}
