/** Whether a file's head is hping3 output, for `netbench import --tool auto`: its `HPING target (…): … set, N headers + M data bytes` line. */
export function sniffHping3(head: string): boolean {
  return /^HPING \S+ \(\S+ \S+\): .* set, \d+ headers \+ \d+ data bytes/m.test(head.split('\n', 4).join('\n'));
}
