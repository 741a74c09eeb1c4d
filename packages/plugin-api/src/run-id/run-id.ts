import { randomInt } from 'node:crypto';

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
  for (let i = 0; i < 6; i += 1) tag += ALPHABET[randomInt(ALPHABET.length)];
  return `${date}-${time}-${tag}`;
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
