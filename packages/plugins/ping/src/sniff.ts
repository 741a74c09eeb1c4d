// iputils' first line, or the diagnostic it prints instead when it cannot start.
const PING_START_RE = /^(?:PING \S+ ?\(\S+\)|ping6?: )/;

/** Whether a file's head is Linux (iputils) ping output, for `netbench import --tool auto`. */
export function sniffPing(head: string): boolean {
  const first = head.split('\n', 8).find((line) => line.trim() !== '');
  return first !== undefined && PING_START_RE.test(first);
}
