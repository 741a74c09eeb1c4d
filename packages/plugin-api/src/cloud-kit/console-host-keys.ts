/**
 * SSH host keys a new machine prints on its console at first boot, which a
 * cloud plugin pins before its first SSH connection. Ubuntu's cloud-init
 * (GCE, Azure and EC2 images alike) writes
 *
 *   -----BEGIN SSH HOST KEY KEYS-----
 *   ecdsa-sha2-nistp256 AAAA... root@host
 *   ssh-ed25519 AAAA... root@host
 *   -----END SSH HOST KEY KEYS-----
 *
 * to the serial console. Consoles may use CRLF and wrap long lines, so the
 * block is joined and each key is cut at the length its own wire format says.
 */
const BLOCK_RE = /-----BEGIN SSH HOST KEY KEYS-----([\s\S]*?)-----END SSH HOST KEY KEYS-----/g;
const START_RE = /^\s*(ssh-ed25519|ecdsa-sha2-nistp(?:256|384|521)|ssh-rsa)\s/;
const KEY_RE = /(ssh-ed25519|ecdsa-sha2-nistp(?:256|384|521)|ssh-rsa)\s+([A-Za-z0-9+/]+={0,2})/g;
/** Length-prefixed fields in each key type's public blob (type name included). */
const FIELDS: Record<string, number> = { 'ssh-ed25519': 2, 'ssh-rsa': 3, 'ecdsa-sha2-nistp256': 3, 'ecdsa-sha2-nistp384': 3, 'ecdsa-sha2-nistp521': 3 };

/** The blob's exact length from its fields, or undefined when it is not a well-formed key of `type`. */
function blobLength(blob: Buffer, type: string): number | undefined {
  let offset = 0;
  for (let i = 0; i < FIELDS[type]!; i += 1) {
    if (offset + 4 > blob.length) return undefined;
    const length = blob.readUInt32BE(offset);
    if (offset + 4 + length > blob.length) return undefined;
    if (i === 0 && blob.toString('latin1', offset + 4, offset + 4 + length) !== type) return undefined;
    offset += 4 + length;
  }
  return offset;
}

/** `type base64` lines of the last host-key block in `console` (the latest boot), deduplicated. */
export function parseConsoleHostKeys(console: string): string[] {
  const blocks = [...console.matchAll(BLOCK_RE)];
  const last = blocks.at(-1)?.[1];
  if (last === undefined) return [];
  // A line starting with a key type starts a key; any other line continues the one before (a wrapped line).
  const entries: string[] = [];
  for (const line of last.split(/\r?\n|\r/)) {
    if (START_RE.test(line) || entries.length === 0) entries.push(line);
    else entries[entries.length - 1] += line;
  }
  const keys: string[] = [];
  for (const match of entries.flatMap((entry) => [...entry.matchAll(KEY_RE)])) {
    const type = match[1]!;
    const blob = Buffer.from(match[2]!, 'base64');
    const length = blobLength(blob, type);
    if (length === undefined) continue;
    const key = `${type} ${blob.subarray(0, length).toString('base64')}`;
    if (!keys.includes(key)) keys.push(key);
  }
  return keys;
}
