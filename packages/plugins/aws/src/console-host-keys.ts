const BEGIN = '-----BEGIN SSH HOST KEY KEYS-----';
const END = '-----END SSH HOST KEY KEYS-----';
/** A public key anywhere on a line (console lines may carry prefixes such as `ec2: ` or kernel timestamps). */
const KEY_RE = /\b(ssh-ed25519|ssh-rsa|ecdsa-sha2-nistp(?:256|384|521)|sk-ssh-ed25519@openssh\.com|sk-ecdsa-sha2-nistp256@openssh\.com) (AAAA[0-9A-Za-z+/]+={0,2})/;
/** cloud-init's last stage has run: if no keys were printed by now, none will be. */
export const CLOUD_INIT_FINISHED_RE = /Cloud-init v\. \S+ finished at/;

/**
 * The SSH host keys cloud-init prints on the serial console
 * (`write-ssh-key-fingerprints`, the block between `-----BEGIN SSH HOST KEY
 * KEYS-----` and `-----END …-----`), as `type base64` lines. The last complete
 * block wins (a reboot prints a new one). A line whose blob does not start
 * with its own key type (bytes of two writers interleaved on the console) is
 * dropped rather than trusted.
 */
export function parseConsoleHostKeys(console: string): string[] {
  const end = console.lastIndexOf(END);
  if (end < 0) return [];
  const begin = console.lastIndexOf(BEGIN, end);
  if (begin < 0) return [];
  const keys: string[] = [];
  for (const line of console.slice(begin + BEGIN.length, end).split(/\r?\n/)) {
    const match = KEY_RE.exec(line);
    if (!match) continue;
    const [, type, blob] = match as unknown as [string, string, string];
    if (blobType(blob) === type && !keys.includes(`${type} ${blob}`)) keys.push(`${type} ${blob}`);
  }
  return keys;
}

function blobType(blob: string): string | undefined {
  const bytes = Buffer.from(blob, 'base64');
  if (bytes.length < 4) return undefined;
  const length = bytes.readUInt32BE(0);
  if (length > 64 || bytes.length < 4 + length) return undefined;
  return bytes.subarray(4, 4 + length).toString('latin1');
}
