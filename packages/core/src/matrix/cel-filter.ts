import { createRequire } from 'node:module';
import type { Environment } from '@marcbachmann/cel-js';
import type { Scalar } from '@netbench/plugin-api';
import { RE2_MATCHES, re2Matches, useRe2 } from './re2-matches.js';

export type CelType = 'int' | 'double' | 'string' | 'bool' | 'dyn';

let cel: typeof import('@marcbachmann/cel-js') | undefined;

/**
 * cel-js on first use: building its standard library on import costs ~10-20 ms
 * of CPU that a spec without filters (most runs) need not pay.
 * Synchronous (`require` of an ES module, Node ≥ 22.12), since planning is.
 */
function loadCel(): typeof import('@marcbachmann/cel-js') {
  cel ??= createRequire(import.meta.url)('@marcbachmann/cel-js') as typeof import('@marcbachmann/cel-js');
  return cel;
}

/** CEL is strictly typed: a variable is `int` only when every value is an integer, and so on. */
export function celTypeOf(values: readonly Scalar[]): CelType {
  if (values.every((v) => typeof v === 'boolean')) return 'bool';
  if (values.every((v) => typeof v === 'string')) return 'string';
  if (values.every((v) => typeof v === 'number' && Number.isInteger(v))) return 'int';
  if (values.every((v) => typeof v === 'number')) return 'double';
  return 'dyn';
}

/** Integers go to CEL as BigInt (its `int`), so `streams > 4` type-checks; doubles stay numbers. */
function toCel(value: Scalar, type: CelType): unknown {
  if (typeof value === 'number' && (type === 'int' || (type === 'dyn' && Number.isInteger(value)))) return BigInt(value);
  return value;
}

export interface CompiledFilter {
  readonly index: number;
  readonly source: string;
  /** Throws the CEL evaluation error. */
  test(context: Readonly<Record<string, unknown>>): boolean;
}

export type CompileResult = { readonly ok: true; readonly filter: CompiledFilter } | { readonly ok: false; readonly message: string };

/** Compiles filters against the matrix variables; never evaluates code other than CEL. */
export class FilterCompiler {
  private readonly env: Environment;
  private readonly types = new Map<string, CelType>();
  readonly variableIssues: { name: string; message: string }[] = [];

  constructor(variables: ReadonlyMap<string, readonly Scalar[]>) {
    // Limits keep evaluation time bounded by the expression's size: a filter cannot build big lists or nest deeply.
    this.env = new (loadCel().Environment)({ unlistedVariablesAreDyn: false, limits: { maxAstNodes: 5000, maxDepth: 100, maxListElements: 100, maxMapEntries: 100 } });
    // `matches` runs on RE2 (linear time), as CEL specifies; JavaScript's RegExp backtracks exponentially.
    this.env.registerFunction(`string.${RE2_MATCHES}(string): bool`, re2Matches);
    this.env.registerFunction(`${RE2_MATCHES}(string, string): bool`, re2Matches);
    for (const [name, values] of variables) {
      const type = celTypeOf(values);
      try {
        this.env.registerVariable(name, type);
        this.types.set(name, type);
      } catch (error) {
        this.variableIssues.push({ name, message: `'${name}' cannot be used in filters: ${celMessage(error)}` });
      }
    }
  }

  compile(source: string, index: number): CompileResult {
    let checked;
    try {
      checked = this.env.check(source);
    } catch (error) {
      return { ok: false, message: `invalid filter: ${celMessage(error)}` };
    }
    if (!checked.valid) return { ok: false, message: `invalid filter: ${celMessage(checked.error)}` };
    if (checked.type !== 'bool' && checked.type !== 'dyn') {
      return { ok: false, message: `filter must be a boolean expression, but it gives ${checked.type}` };
    }
    const parsed = this.env.parse(source);
    const regexProblem = useRe2(parsed.ast);
    if (regexProblem) return { ok: false, message: `invalid filter: ${regexProblem}` };
    const filter: CompiledFilter = {
      index,
      source,
      test: (context) => parsed(context) === true,
    };
    return { ok: true, filter };
  }

  /** The CEL evaluation context of a cell. */
  context(cell: Readonly<Record<string, Scalar>>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [name, type] of this.types) {
      const value = cell[name];
      if (value !== undefined) out[name] = toCel(value, type);
    }
    return out;
  }
}

/** CEL errors carry a one-line `summary`; their `message` adds a source excerpt. */
export function celMessage(error: unknown): string {
  if (error && typeof error === 'object') {
    const summary = (error as { summary?: unknown }).summary;
    const range = (error as { range?: { start?: unknown } }).range;
    const at = typeof range?.start === 'number' ? ` (at character ${range.start + 1})` : '';
    if (typeof summary === 'string' && summary !== '') return summary + at;
    if (error instanceof Error) return (error.message.split('\n')[0] ?? error.message) + at;
  }
  return String(error);
}
