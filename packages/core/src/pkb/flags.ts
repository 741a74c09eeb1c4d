import type { Scalar } from '@netbench/plugin-api';
import { isPlainObject } from '../matrix/placeholders.js';
import type { Path, Problems } from './problems.js';

/** A flag as one matrix cell sees it: a fixed value from `flags`, or a matrix variable. */
export type FlagValue =
  | { readonly kind: 'value'; readonly value: unknown; readonly path: Path }
  | { readonly kind: 'axis'; readonly variable: string; readonly values: readonly Scalar[]; readonly path: Path };

export interface AxisFlag {
  readonly values: readonly Scalar[];
  readonly path: Path;
}

/**
 * The flags of one PKB benchmark config: its `flags` mapping plus the flags
 * its flag matrix and zip vary (those win, as PKB applies them on top).
 * Remembers which flags the translation read, so the rest can be reported.
 */
export class PkbFlags {
  private readonly values = new Map<string, { value: unknown; path: Path }>();
  private readonly used = new Set<string>();

  constructor(
    raw: unknown,
    private readonly base: Path,
    readonly axes: ReadonlyMap<string, AxisFlag>,
    problems: Problems,
  ) {
    if (raw === undefined || raw === null) return;
    if (!isPlainObject(raw)) {
      problems.error(base, 'flags must be a mapping of flag names to values');
      return;
    }
    for (const [written, value] of Object.entries(raw)) {
      const name = normaliseFlagName(written);
      if (name !== written) problems.warn([...base, written], `PKB flag names are lower case: read '${written}' as '${name}'`);
      this.values.set(name, { value: normaliseFlagValue(value), path: [...base, written] });
    }
  }

  /** The flag as the cell sees it, or undefined when the config does not set it. */
  get(name: string): FlagValue | undefined {
    this.used.add(name);
    const axis = this.axes.get(name);
    if (axis) return { kind: 'axis', variable: name, values: axis.values, path: axis.path };
    const set = this.values.get(name);
    return set ? { kind: 'value', value: set.value, path: set.path } : undefined;
  }

  has(name: string): boolean {
    return this.axes.has(name) || this.values.has(name);
  }

  /** Where the flag is written (its `flags:` entry or its matrix axis), else the `flags` block. */
  pathOf(name: string): Path {
    return this.axes.get(name)?.path ?? this.values.get(name)?.path ?? this.base;
  }

  /** Every fixed flag value, for filters (PKB evaluates them over all the config's flags). */
  constants(): ReadonlyMap<string, unknown> {
    return new Map([...this.values].filter(([name]) => !this.axes.has(name)).map(([name, { value }]) => [name, value]));
  }

  /** Flags set in the config that no part of the translation read. */
  unused(): { name: string; path: Path }[] {
    const names = new Set([...this.values.keys(), ...this.axes.keys()]);
    return [...names].filter((name) => !this.used.has(name)).map((name) => ({ name, path: this.pathOf(name) }));
  }

  markUsed(name: string): void {
    this.used.add(name);
  }
}

export function normaliseFlagName(name: string): string {
  return name.replace(/^-+/, '').toLowerCase();
}

/** PKB parses flag strings: `True`/`False` are booleans there too. */
export function normaliseFlagValue(value: unknown): unknown {
  if (value === 'True' || value === 'true') return true;
  if (value === 'False' || value === 'false') return false;
  return value;
}

/** A matrix placeholder for a flag, as native fields write it. */
export function placeholder(variable: string): string {
  return `\${${variable}}`;
}

export type Read<T> = { readonly ok: true; readonly value: T } | { readonly ok: false };

/**
 * A list flag (`netperf_benchmarks`, `zones`, ...): a YAML list or PKB's
 * comma-separated string. A matrix axis gives one element per cell.
 */
export function readStringList(flag: FlagValue, problems: Problems): Read<string[]> {
  if (flag.kind === 'axis') {
    const bad = flag.values.find((v) => typeof v !== 'string' || v.includes(','));
    if (bad !== undefined) {
      problems.error(flag.path, `each value of this matrix flag must be one item (found ${JSON.stringify(bad)}); list several items in flags instead`);
      return { ok: false };
    }
    return { ok: true, value: [placeholder(flag.variable)] };
  }
  const { value } = flag;
  if (typeof value === 'string')
    return {
      ok: true,
      value: value
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    };
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number')) return { ok: true, value: value.map(String) };
  problems.error(flag.path, 'expected a list or a comma-separated string');
  return { ok: false };
}

/** PKB's integer lists: `1,4,32`, a YAML list, or ranges such as `5:7` (5, 6, 7). */
export function readIntegerList(flag: FlagValue, problems: Problems): Read<(number | string)[]> {
  if (flag.kind === 'axis') {
    if (!flag.values.every((v) => typeof v === 'number' && Number.isInteger(v))) {
      problems.error(flag.path, 'each value of this matrix flag must be one integer; list several in flags instead');
      return { ok: false };
    }
    return { ok: true, value: [placeholder(flag.variable)] };
  }
  const items = typeof flag.value === 'number' ? [flag.value] : typeof flag.value === 'string' ? flag.value.split(',') : Array.isArray(flag.value) ? flag.value : undefined;
  if (!items) {
    problems.error(flag.path, 'expected an integer, a list of integers or a comma-separated string such as 1,4,32');
    return { ok: false };
  }
  const out: number[] = [];
  for (const item of items) {
    const text = String(item).trim();
    const range = /^(\d+):(\d+)(?::(\d+))?$/.exec(text);
    if (range) {
      const [from, to, step] = [Number(range[1]), Number(range[2]), Number(range[3] ?? 1)];
      for (let n = from; n <= to && step > 0; n += step) out.push(n);
    } else if (/^-?\d+$/.test(text)) {
      out.push(Number(text));
    } else {
      problems.error(flag.path, `'${text}' is not an integer`);
      return { ok: false };
    }
  }
  return { ok: true, value: [...new Set(out)] };
}

/** One integer (`netperf_test_length`); an axis becomes its placeholder. */
export function readInteger(flag: FlagValue, problems: Problems): Read<number | string> {
  if (flag.kind === 'axis') {
    if (!flag.values.every((v) => typeof v === 'number' && Number.isInteger(v))) {
      problems.error(flag.path, 'every value of this matrix flag must be an integer');
      return { ok: false };
    }
    return { ok: true, value: placeholder(flag.variable) };
  }
  const value = typeof flag.value === 'string' && /^-?\d+$/.test(flag.value.trim()) ? Number(flag.value) : flag.value;
  if (typeof value === 'number' && Number.isInteger(value)) return { ok: true, value };
  problems.error(flag.path, 'expected an integer');
  return { ok: false };
}

/** A number (bandwidths in Mbit/s). */
export function readNumber(flag: FlagValue, problems: Problems): Read<number | string> {
  if (flag.kind === 'axis') {
    if (!flag.values.every((v) => typeof v === 'number')) {
      problems.error(flag.path, 'every value of this matrix flag must be a number');
      return { ok: false };
    }
    return { ok: true, value: placeholder(flag.variable) };
  }
  const value = typeof flag.value === 'string' && flag.value.trim() !== '' ? Number(flag.value) : flag.value;
  if (typeof value === 'number' && Number.isFinite(value)) return { ok: true, value };
  problems.error(flag.path, 'expected a number');
  return { ok: false };
}

/** A string flag (`machine_type`, `gce_network_tier`). */
export function readString(flag: FlagValue, problems: Problems): Read<string> {
  if (flag.kind === 'axis') {
    if (!flag.values.every((v) => typeof v === 'string')) {
      problems.error(flag.path, 'every value of this matrix flag must be a string');
      return { ok: false };
    }
    return { ok: true, value: placeholder(flag.variable) };
  }
  if (typeof flag.value === 'string' || typeof flag.value === 'number') return { ok: true, value: String(flag.value) };
  problems.error(flag.path, 'expected a string');
  return { ok: false };
}

/** A boolean flag; not allowed as a matrix axis (it changes which trials exist). */
export function readBoolean(flag: FlagValue, problems: Problems): Read<boolean> {
  if (flag.kind === 'axis') {
    problems.error(flag.path, 'this flag decides which trials exist; it cannot be a matrix axis in netbench (make two configs)');
    return { ok: false };
  }
  if (typeof flag.value === 'boolean') return { ok: true, value: flag.value };
  problems.error(flag.path, 'expected True or False');
  return { ok: false };
}

/** A fixed choice (`ip_addresses`); not allowed as a matrix axis either. */
export function readChoice<T extends string>(flag: FlagValue, choices: readonly T[], problems: Problems): Read<T> {
  if (flag.kind === 'axis') {
    problems.error(flag.path, 'this flag decides which trials exist; it cannot be a matrix axis in netbench (make two configs)');
    return { ok: false };
  }
  const value = typeof flag.value === 'string' ? flag.value.toUpperCase() : undefined;
  const found = choices.find((c) => c.toUpperCase() === value);
  if (found) return { ok: true, value: found };
  problems.error(flag.path, `expected one of ${choices.join(', ')}`);
  return { ok: false };
}
