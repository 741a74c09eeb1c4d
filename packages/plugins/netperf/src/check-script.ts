// netperf's check as one command on the host: over SSH every command is a
// round trip, and the check used to take six (version, netserver, a netserver
// started, polled until it listened, a transaction, a stop).

const MARK = '@@netbench-check';

/**
 * `sh -c SCRIPT`: `netperf -w 1ms -b 1 -V`, `netserver -V`, then a self-test
 * (a netserver on 127.0.0.1 at control port `base`, data port `base + 1`, one
 * TCP_RR transaction, the netserver stopped). Each part's output is followed
 * by a marker line with its exit code. The script holds only these two port
 * numbers: nothing from a spec. It waits for the netserver by asking the
 * kernel whether the port listens (`ss`), without sleeping, and stops looking
 * when the netserver has exited.
 */
export function checkScript(base: number): string[] {
  if (!Number.isInteger(base) || base < 1024 || base > 65534) throw new RangeError(`bad self-test port ${base}`);
  const control = String(base);
  const data = String(base + 1);
  const script = [
    `netperf -w 1ms -b 1 -V 2>&1; echo "${MARK} probe $?"`,
    `netserver -V 2>&1; echo "${MARK} netserver $?"`,
    `netserver -D -L 127.0.0.1 -p ${control} >/dev/null 2>&1 & s=$!`,
    'i=0',
    `if command -v ss >/dev/null 2>&1; then while [ $i -lt 2000 ] && kill -0 $s 2>/dev/null && ! ss -Hltn "sport = :${control}" | grep -q .; do i=$((i+1)); done; else sleep 0.3; fi`,
    `netperf -H 127.0.0.1 -p ${control} -t TCP_RR -l -1 -- -P ,${data} -o THROUGHPUT 2>&1; echo "${MARK} selftest $?"`,
    'kill $s 2>/dev/null; wait $s 2>/dev/null; exit 0',
  ].join('\n');
  return ['sh', '-c', script];
}

export interface CheckSection {
  readonly output: string;
  readonly code: number;
}

/** The parts of the script's output, by name; a part the script never reached is missing. */
export function readCheckOutput(text: string): Partial<Record<'probe' | 'netserver' | 'selftest', CheckSection>> {
  const sections: Partial<Record<'probe' | 'netserver' | 'selftest', CheckSection>> = {};
  let output: string[] = [];
  for (const line of text.split('\n')) {
    const mark = new RegExp(`^${MARK} (probe|netserver|selftest) (\\d+)$`).exec(line.trim());
    if (!mark) {
      output.push(line);
      continue;
    }
    sections[mark[1] as 'probe' | 'netserver' | 'selftest'] = { output: output.join('\n'), code: Number(mark[2]) };
    output = [];
  }
  return sections;
}
