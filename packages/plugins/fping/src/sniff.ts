const NUM = String.raw`\d+(?:\.\d+)?`;
// Any of fping's line shapes: per-packet, timed out, -c summary, -C vector, an ICMP error (all may follow a -D timestamp).
const FPING_RE = new RegExp(
  String.raw`^(?:\[\d+(?:\.\d+)?\]\s+)?(?:\S+\s+: (?:\[\d+\], (?:\d+ bytes, ${NUM} ms|timed out)|xmt\/rcv\/%loss = |(?:${NUM}|-)(?: (?:${NUM}|-))*$)|ICMP .* for ICMP Echo sent to |\S+ is (?:alive|unreachable)\b|fping: )`,
);

/** Whether a file's head is fping output, for `netbench import --tool auto`: its first non-blank line is one of fping's. */
export function sniffFping(head: string): boolean {
  const first = head.split('\n', 8).find((line) => line.trim() !== '');
  return first !== undefined && FPING_RE.test(first.trim());
}
