import { NetbenchError } from '@netbench/plugin-api';

const DURATION_RE = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)$/;
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `90s`, `30m`, `4h`, `2d` → milliseconds. */
export function parseDuration(text: string): number {
  const match = DURATION_RE.exec(text.trim());
  if (!match) throw new NetbenchError(`cannot read duration "${text}": use a number with ms, s, m, h or d (e.g. 4h)`);
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}
