// Text reports: the client's first line, `-V`'s version line, a server's banner, or iperf3's error; maybe after a --timestamps prefix.
const TEXT_RE =
  /^(?:[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \d{4} )?(?:Connecting to host \S+, port \d+|iperf 3\.\d+|iperf3: (?:error|interrupt) - |Server listening on \d+(?: \(test #\d+\))?$)/;
// JSON: keys only iperf3 -J writes.
const JSON_RE = /"(?:test_start|connecting_to|accepted_connection)"\s*:|"version"\s*:\s*"iperf 3\./;
const HEAD_LINES = 20;

/** Whether a file's head is iperf3 output (`-J` JSON or the text report), for `netbench import --tool auto`. */
export function sniffIperf3(head: string): boolean {
  if (head.trimStart().startsWith('{')) return JSON_RE.test(head);
  return head.split('\n', HEAD_LINES).some((line) => TEXT_RE.test(line.trim()));
}
