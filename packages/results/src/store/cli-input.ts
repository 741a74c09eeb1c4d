import { NetbenchError } from '@netbench/plugin-api';
import { parse } from 'yaml';
import type { LabelCondition } from './list-runs.js';

const KEY_VALUE_RE = /^([^=]+)=(.*)$/s;
const RELATIVE_RE = /^(\d+(?:\.\d+)?)\s*(s|m|h|d|w)$/;
const UNIT_MS: Readonly<Record<string, number>> = { s: 1e3, m: 60e3, h: 3600e3, d: 86_400e3, w: 604_800e3 };

/** `key=value` texts (`--label`, `--where`, `--baseline`) as conditions; values compare as text. */
export function parseLabelConditions(texts: readonly string[] = [], flag = '--label'): LabelCondition[] {
  return texts.map((text) => {
    const m = KEY_VALUE_RE.exec(text);
    if (!m || m[1]!.trim() === '') throw new NetbenchError(`${flag} ${text}: expected key=value`);
    return [m[1]!.trim(), m[2]!] as const;
  });
}

/**
 * A time bound from what a user types: an ISO date or date-time
 * (`2026-11-01`, `2026-11-01T12:00Z`) or an age (`30m`, `12h`, `7d`, `2w`:
 * that long before `now`).
 */
export function parseTimeBound(text: string, flag: string, now: Date = new Date()): Date {
  const relative = RELATIVE_RE.exec(text.trim());
  if (relative) return new Date(now.getTime() - Number(relative[1]) * UNIT_MS[relative[2]!]!);
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) throw new NetbenchError(`${flag} ${text}: expected a date (2026-11-01, 2026-11-01T12:00Z) or an age (30m, 12h, 7d, 2w)`);
  return new Date(ms);
}

/**
 * Publisher settings from `key=value` texts; dotted keys nest
 * (`ssl.mode=require`) and values read as YAML scalars (`5`, `true`, text).
 */
export function parseSettings(texts: readonly string[] = []): Record<string, unknown> {
  const settings: Record<string, unknown> = {};
  for (const text of texts) {
    const m = KEY_VALUE_RE.exec(text);
    if (!m || m[1]!.trim() === '') throw new NetbenchError(`--setting ${text}: expected key=value`);
    const path = m[1]!.trim().split('.');
    let target = settings;
    for (const part of path.slice(0, -1)) {
      const next = target[part];
      target = (target[part] = typeof next === 'object' && next !== null ? next : {}) as Record<string, unknown>;
    }
    target[path.at(-1)!] = scalar(m[2]!);
  }
  return settings;
}

function scalar(text: string): unknown {
  try {
    const value: unknown = parse(text);
    return typeof value === 'object' || value === undefined ? text : value;
  } catch {
    return text;
  }
}
