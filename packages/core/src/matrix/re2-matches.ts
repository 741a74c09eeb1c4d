import { createRequire } from 'node:module';
import type { RE2JS } from 're2js';

let re2: typeof import('re2js') | undefined;

/**
 * re2js on first use: 260 KB of code with Unicode tables built on import,
 * which a spec without `matches` in a filter (most runs) need not load
 * at all. Synchronous, since planning is (its CommonJS build).
 */
function loadRe2(): typeof import('re2js') {
  re2 ??= createRequire(import.meta.url)('re2js') as typeof import('re2js');
  return re2;
}

/** The name `matches` calls are renamed to, so they run on RE2 instead of JavaScript's backtracking RegExp. */
export const RE2_MATCHES = 'matches_re2';
/** Longest pattern accepted: RE2's program size grows with it, and no real filter comes near. */
export const MAX_PATTERN_LENGTH = 1000;

const compiled = new Map<string, RE2JS>();

/**
 * CEL's `string.matches(pattern)`: true when RE2 finds the pattern anywhere
 * in the string (as the CEL specification says), in time linear in the
 * input (re2js is a pure-JavaScript port of RE2: no backtracking, no
 * lookaround, no backreferences). Throws on a pattern RE2 does not accept.
 */
export function re2Matches(input: string, pattern: string): boolean {
  return compileRe2(pattern).test(input);
}

/** The compiled pattern (cached), or an Error saying why RE2 refuses it. */
export function compileRe2(pattern: string): RE2JS {
  let re = compiled.get(pattern);
  if (re) return re;
  if (pattern.length > MAX_PATTERN_LENGTH) throw new Error(`the regular expression is ${pattern.length} characters long; the limit is ${MAX_PATTERN_LENGTH}`);
  try {
    re = loadRe2().RE2JS.compile(pattern);
  } catch (error) {
    throw new Error(
      `invalid regular expression ${JSON.stringify(pattern)} (CEL uses RE2 syntax: no lookaround or backreferences): ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (compiled.size > 256) compiled.clear();
  compiled.set(pattern, re);
  return re;
}

/** Comprehensions (`all`, `exists`, `map`, ...) nested deeper than this are refused: each level multiplies the work. */
export const MAX_COMPREHENSION_NESTING = 2;
const COMPREHENSIONS = new Set(['all', 'exists', 'exists_one', 'map', 'filter']);

interface AstNode {
  op?: unknown;
  args?: unknown;
}

/**
 * Make a parsed filter safe to evaluate: comprehension nesting is bounded
 * (with CEL's list-size limit, each evaluation's work is bounded by the
 * expression's size), and every `matches` call of a parsed CEL expression (receiver style and
 * global style) at the RE2 implementation, and check literal patterns now,
 * so a pattern RE2 refuses is a filter error rather than a run-time one.
 * Returns the problem with a literal pattern, if any.
 */
export function useRe2(ast: unknown): string | undefined {
  let problem: string | undefined;
  const visit = (node: unknown, depth: number, loops: number): void => {
    if (typeof node !== 'object' || node === null || depth > 1000) return;
    if (Array.isArray(node)) {
      for (const item of node) visit(item, depth + 1, loops);
      return;
    }
    const { op, args } = node as AstNode;
    if (op === 'rcall' && Array.isArray(args) && COMPREHENSIONS.has(args[0] as string)) {
      loops++;
      if (loops > MAX_COMPREHENSION_NESTING) problem ??= `comprehensions (all, exists, map, filter) nest deeper than ${MAX_COMPREHENSION_NESTING} levels`;
    }
    if ((op === 'rcall' || op === 'call') && Array.isArray(args) && args[0] === 'matches') {
      args[0] = RE2_MATCHES;
      const patternArgs = (op === 'rcall' ? args[2] : args[1]) as unknown[] | undefined;
      const pattern = patternArgs?.[patternArgs.length - 1] as AstNode | undefined;
      if (pattern?.op === 'value' && typeof pattern.args === 'string') {
        try {
          compileRe2(pattern.args);
        } catch (error) {
          problem ??= (error as Error).message;
        }
      }
    }
    if (Array.isArray(args)) for (const arg of args) visit(arg, depth + 1, loops);
  };
  visit(ast, 0, 0);
  return problem;
}
