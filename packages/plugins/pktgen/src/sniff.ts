/** Whether a file's head is a pktgen device file (`cat /proc/net/pktgen/<device>`), for `netbench import --tool auto`. */
export function sniffPktgen(head: string): boolean {
  return /^Params: count \d+\s+min_pkt_size: \d+/.test(head.trimStart());
}
