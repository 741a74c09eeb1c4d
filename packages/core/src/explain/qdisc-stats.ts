/** One qdisc's statistics from `tc -s -j qdisc show`. */
export interface QdiscCounters {
  readonly dev: string;
  readonly kind: string;
  readonly handle: string;
  readonly parent?: string;
  readonly bytes: number;
  readonly packets: number;
  readonly drops: number;
  readonly overlimits: number;
  readonly backlog: number;
  /** tbf/htb's configured rate in bit/s (tc prints bytes/s), when the qdisc has one. */
  readonly rateBitsPerSecond?: number;
}

const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/** tc's JSON (one array); anything else (no tc, an old tc without -j) is no qdisc at all. */
export function parseQdiscStats(text: string): QdiscCounters[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.trim() || '[]');
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed.flatMap((entry: Record<string, unknown>) => {
    if (typeof entry?.kind !== 'string' || typeof entry.dev !== 'string') return [];
    const options = (entry.options ?? {}) as Record<string, unknown>;
    const rate = typeof options.rate === 'number' ? options.rate * 8 : undefined;
    return [
      {
        dev: entry.dev,
        kind: entry.kind,
        handle: String(entry.handle ?? ''),
        ...(typeof entry.parent === 'string' ? { parent: entry.parent } : {}),
        bytes: num(entry.bytes),
        packets: num(entry.packets),
        drops: num(entry.drops),
        overlimits: num(entry.overlimits),
        backlog: num(entry.backlog),
        ...(rate !== undefined ? { rateBitsPerSecond: rate } : {}),
      },
    ];
  });
}
