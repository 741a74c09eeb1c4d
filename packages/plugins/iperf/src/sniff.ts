// iperf 2's headers ("Client connecting to H, TCP port P", "Server listening on UDP port P") and stream lines ("connected with").
const IPERF2_RE = /^(?:Client connecting to \S+, (?:TCP|UDP) port \d+|Server listening on (?:TCP|UDP) port \d+|\[\s*\*?\d+\] local \S+ port \d+ connected with \S+ port \d+)/;
const HEAD_LINES = 30;

/** Whether a file's head is iperf 2 output, for `netbench import --tool auto` (iperf3's say "Connecting to host" and "connected to"). */
export function sniffIperf(head: string): boolean {
  return head.split('\n', HEAD_LINES).some((line) => IPERF2_RE.test(line.trim()));
}
