// irtt's JSON opens with its version block: `"version": { "irtt": "0.9.0", "protocol": 1, "json_format": 1 }`.
const JSON_RE = /"version"\s*:\s*\{\s*"irtt"\s*:\s*"[^"]*"\s*,\s*"protocol"/;

/** Whether a file's head is irtt's JSON result, for `netbench import --tool auto`. */
export function sniffIrtt(head: string): boolean {
  return head.trimStart().startsWith('{') && JSON_RE.test(head);
}
