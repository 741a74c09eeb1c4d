import type { Scalar } from '@netbench/plugin-api';

/** `${name}` inside a string value; names follow CEL identifiers so filters can use them too. */
export const PLACEHOLDER_RE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
const WHOLE_PLACEHOLDER_RE = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

/** Every placeholder in a value, with the path (inside the value) of the string holding it. */
export interface PlaceholderUse {
  readonly name: string;
  readonly path: readonly (string | number)[];
}

export function findPlaceholders(value: unknown, path: (string | number)[] = [], out: PlaceholderUse[] = []): PlaceholderUse[] {
  if (typeof value === 'string') {
    if (value.includes('${')) {
      for (const match of value.matchAll(PLACEHOLDER_RE)) out.push({ name: match[1] as string, path: [...path] });
    }
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => findPlaceholders(item, [...path, i], out));
  } else if (isPlainObject(value)) {
    for (const [key, item] of Object.entries(value)) findPlaceholders(item, [...path, key], out);
  }
  return out;
}

/** Distinct variable names a value references, in order of first use. */
export function referencedVariables(value: unknown): string[] {
  return [...new Set(findPlaceholders(value).map((use) => use.name))];
}

/**
 * Replace placeholders with the cell's values. A string that is exactly one
 * placeholder takes the value itself (a number stays a number); inside a
 * longer string the value is interpolated. Unknown names are left as written
 * (the loader reports them before planning).
 */
export function substitute<T>(value: T, cell: Readonly<Record<string, Scalar>>): T {
  return substituteAny(value, cell) as T;
}

function substituteAny(value: unknown, cell: Readonly<Record<string, Scalar>>): unknown {
  if (typeof value === 'string') {
    if (!value.includes('${')) return value;
    const whole = WHOLE_PLACEHOLDER_RE.exec(value);
    if (whole) {
      const name = whole[1] as string;
      return Object.hasOwn(cell, name) ? cell[name] : value;
    }
    return value.replace(PLACEHOLDER_RE, (text, name: string) => (Object.hasOwn(cell, name) ? String(cell[name]) : text));
  }
  if (Array.isArray(value)) return value.map((item) => substituteAny(item, cell));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = substituteAny(item, cell);
    return out;
  }
  return value;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
