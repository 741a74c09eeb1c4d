/**
 * One read of a host's network and CPU counters: a single process on the
 * host (`sh`, which runs `head` over the /proc files once, then `tc` and
 * `ss`), whatever its transport (a namespace, a container, SSH). `/proc/net`
 * is the reading process's network namespace, so a lab host reads its own.
 * The target address (validated by the caller) is a positional parameter,
 * never pasted into the script.
 */
export const COUNTER_FILES = ['/proc/stat', '/proc/net/snmp', '/proc/net/netstat', '/proc/net/dev', '/proc/net/softnet_stat', '/proc/sys/kernel/random/boot_id'] as const;

const SCRIPT = [
  `head -v -n 100000 -- ${COUNTER_FILES.join(' ')} 2>/dev/null`,
  'echo; echo "==> tc <=="; tc -s -j qdisc show 2>/dev/null',
  'echo; echo "==> ss <=="; if [ -n "$1" ] && [ "$2" = sockets ]; then ss -tinH dst "$1" 2>/dev/null; fi',
  // The interface toward the peer and its MTU (what the mtu-mismatch rule compares between the ends).
  'echo; echo "==> route <=="; if [ -n "$1" ]; then dev=$(ip -o route get "$1" 2>/dev/null | sed -n "s/.* dev \\([^ ]*\\).*/\\1/p"); [ -n "$dev" ] && echo "$dev $(cat "/sys/class/net/$dev/mtu" 2>/dev/null)"; fi',
  // The NIC's own statistics where it has them (ENA's *_allowance_exceeded: the cloud's per-instance limits).
  'if [ -n "$dev" ] && command -v ethtool >/dev/null; then echo; echo "==> ethtool <=="; ethtool -S "$dev" 2>/dev/null; fi',
  // CPU time of the processes in this network namespace (the host's own tools on a lab host): whose time the CPUs spent.
  'echo; echo "==> procs <=="; if [ "$3" = processes ]; then find -L /proc/[0-9]*/ns/net -maxdepth 0 -samefile /proc/self/ns/net 2>/dev/null | sed "s#/ns/net\\$#/stat#" | xargs cat 2>/dev/null; fi',
  // The interface toward each peer of a synchronized-flows trial and its MTU (positional parameters after the third): one `ip route get` each, in this same process.
  'echo; echo "==> routes <=="; shift 3; for p in "$@"; do d=$(ip -o route get "$p" 2>/dev/null | sed -n "s/.* dev \\([^ ]*\\).*/\\1/p"); [ -n "$d" ] && echo "$p $d $(cat "/sys/class/net/$d/mtu" 2>/dev/null)"; done',
  'true',
].join('\n');

/**
 * The argv that reads every counter at once. `peer`: the address of the other
 * end (the interface toward it, its MTU and NIC statistics); `parts.sockets`
 * adds `ss -ti` of the TCP sockets to it, `parts.processes` the CPU time of
 * the processes in this network namespace — the two dearest parts (~8 ms of
 * CPU each), read only where the rules use them; `parts.routes` the
 * interface and MTU toward each of these addresses (a synchronized-flows
 * trial's peers).
 */
export function counterReadArgv(peer?: string, parts: { readonly sockets?: boolean; readonly processes?: boolean; readonly routes?: readonly string[] } = {}): string[] {
  return ['sh', '-c', SCRIPT, 'netbench-counters', peer ?? '', parts.sockets ? 'sockets' : '', parts.processes ? 'processes' : '', ...(parts.routes ?? [])];
}

/** The output of `counterReadArgv` cut into its parts, by the `==> NAME <==` headers head and the script print. */
export function splitSections(output: string): Map<string, string> {
  const sections = new Map<string, string>();
  let name: string | undefined;
  let lines: string[] = [];
  const close = () => {
    if (name !== undefined) sections.set(name, lines.join('\n').trim());
  };
  for (const line of output.split('\n')) {
    const header = /^==> (.+) <==$/.exec(line);
    if (header) {
      close();
      name = header[1]!;
      lines = [];
    } else if (name !== undefined) {
      lines.push(line);
    }
  }
  close();
  return sections;
}
