// node:crypto is loaded on first use: importing it cost every run ~9 ms of start-up, and a local run needs none of it.
const crypto = () => process.getBuiltinModule('node:crypto');

/** One key line of an OpenSSH known_hosts file. */
export interface KnownHostEntry {
  /** Comma-separated patterns, or one hashed `|1|salt|hash` name. */
  readonly hosts: string;
  readonly keyType: string;
  readonly key: Buffer;
  /** `@revoked` lines: this key must be refused for the hosts. */
  readonly revoked: boolean;
  /** Where it came from, for messages (`file:line`). */
  readonly origin: string;
}

const HASHED_RE = /^\|1\|([A-Za-z0-9+/=]+)\|([A-Za-z0-9+/=]+)$/;

/**
 * Parse known_hosts text. Comments and blank lines are skipped, and so are
 * `@cert-authority` lines (netbench does not verify host certificates) and
 * lines it cannot read; `@revoked` lines are kept so their keys are refused.
 */
export function parseKnownHosts(text: string, source: string): KnownHostEntry[] {
  const entries: KnownHostEntry[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const fields = line.split(/\s+/);
    let revoked = false;
    if (fields[0]?.startsWith('@')) {
      const marker = fields.shift();
      if (marker !== '@revoked') return;
      revoked = true;
    }
    const [hosts, keyType, base64] = fields;
    if (!hosts || !keyType || !base64 || !/^[A-Za-z0-9+/]+=*$/.test(base64)) return;
    entries.push({ hosts, keyType, key: Buffer.from(base64, 'base64'), revoked, origin: `${source}:${index + 1}` });
  });
  return entries;
}

/** The name OpenSSH looks a host up by: `host`, or `[host]:port` off port 22. */
export function knownHostsName(host: string, port: number): string {
  return port === 22 ? host : `[${host}]:${port}`;
}

/** Whether an entry's host field names `name` (as built by `knownHostsName`). */
export function entryMatches(entry: KnownHostEntry, name: string): boolean {
  const hashed = HASHED_RE.exec(entry.hosts);
  if (hashed) {
    const salt = Buffer.from(hashed[1]!, 'base64');
    const expected = Buffer.from(hashed[2]!, 'base64');
    const { createHmac, timingSafeEqual } = crypto();
    const actual = createHmac('sha1', salt).update(name).digest();
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }
  // OpenSSH semantics: a matching negated pattern vetoes the line; otherwise any positive match wins.
  let matched = false;
  for (const pattern of entry.hosts.split(',')) {
    const negated = pattern.startsWith('!');
    if (!wildcardMatch(negated ? pattern.slice(1) : pattern, name)) continue;
    if (negated) return false;
    matched = true;
  }
  return matched;
}

/** `*` and `?` wildcards, case-insensitive (host names are). */
function wildcardMatch(pattern: string, name: string): boolean {
  const source = pattern
    .toLowerCase()
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replaceAll('*', '.*')
    .replaceAll('?', '.');
  return new RegExp(`^${source}$`).test(name.toLowerCase());
}

/** The entries for a host, split into usable keys and revoked ones. */
export function lookupHost(entries: readonly KnownHostEntry[], host: string, port: number): { keys: KnownHostEntry[]; revoked: KnownHostEntry[] } {
  const name = knownHostsName(host, port);
  const found = entries.filter((entry) => entryMatches(entry, name));
  return { keys: found.filter((e) => !e.revoked), revoked: found.filter((e) => e.revoked) };
}

/** A known_hosts line for a key, host name in OpenSSH's form. */
export function knownHostsLine(host: string, port: number, blob: Uint8Array, keyType: string, comment?: string): string {
  return `${knownHostsName(host, port)} ${keyType} ${Buffer.from(blob).toString('base64')}${comment ? ` ${comment}` : ''}\n`;
}
