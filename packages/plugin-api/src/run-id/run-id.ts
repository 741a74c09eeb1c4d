import { closeSync, openSync, readSync } from 'node:fs';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
const RUN_ID_RE = /^(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})-([0-9a-z]{6})$/;

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A run id that sorts by start time: `20261122-110256-k3f9a2` (UTC date and
 * time, then six random base36 characters so runs started in the same second
 * differ). Every resource a cloud creates carries it (or its tag) in its name.
 */
export function newRunId(now: Date = new Date()): string {
  const date = `${now.getUTCFullYear()}${pad(now.getUTCMonth() + 1)}${pad(now.getUTCDate())}`;
  const time = `${pad(now.getUTCHours())}${pad(now.getUTCMinutes())}${pad(now.getUTCSeconds())}`;
  let tag = '';
  for (let i = 0; i < 6; i += 1) tag += ALPHABET[randomBelow(ALPHABET.length)];
  return `${date}-${time}-${tag}`;
}

let pool: Uint8Array = new Uint8Array(0);

/**
 * A uniform random integer in [0, n), n ≤ 256, from the kernel's random
 * source. Read from /dev/urandom rather than through node:crypto, whose
 * loading cost every run ~9 ms of start-up; where there is no
 * /dev/urandom, node:crypto's randomInt.
 */
function randomBelow(n: number): number {
  // Bytes at or above the largest multiple of n are skipped, so every value is equally likely.
  const limit = 256 - (256 % n);
  for (;;) {
    if (pool.length === 0) pool = urandom(32) ?? new Uint8Array(0);
    if (pool.length === 0) return process.getBuiltinModule('node:crypto').randomInt(n);
    const byte = pool[0]!;
    pool = pool.subarray(1);
    if (byte < limit) return byte % n;
  }
}

function urandom(size: number): Uint8Array | undefined {
  try {
    const fd = openSync('/dev/urandom', 'r');
    try {
      const bytes = new Uint8Array(size);
      return readSync(fd, bytes, 0, size, null) === size ? bytes : undefined;
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

/** Start time encoded in a run id, or `undefined` when `id` is not one. */
export function parseRunIdTime(id: string): Date | undefined {
  const m = RUN_ID_RE.exec(id);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s] = m.map(Number) as [number, number, number, number, number, number, number];
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  // Reject impossible dates (month 13) that Date.UTC would silently roll over.
  return date.getUTCMonth() === mo - 1 && date.getUTCDate() === d && date.getUTCHours() === h ? date : undefined;
}

/**
 * The random suffix of a run id. Short enough for names with tight limits
 * (Linux interface names: 15 bytes), unique enough to tell concurrent runs apart.
 * Ids not made by `newRunId` are reduced to their last six name-safe characters.
 */
export function runTag(runId: string): string {
  const m = RUN_ID_RE.exec(runId);
  if (m) return m[7]!;
  const safe = runId.toLowerCase().replace(/[^0-9a-z]/g, '');
  return safe.slice(-6).padStart(6, '0');
}
