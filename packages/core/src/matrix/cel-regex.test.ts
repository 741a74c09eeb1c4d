import { describe, expect, test } from 'vitest';
import { SpecError } from '../issues/spec-error.js';
import { expandMatrix } from './expand-matrix.js';
import type { MatrixSpec } from './types.js';

const matrix = (axes: MatrixSpec['axes'], filter: string): MatrixSpec => ({ axes, zip: [], filters: [filter] });
const messageOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(SpecError);
    return (error as Error).message;
  }
  throw new Error('expected a SpecError');
};

describe('CEL matches() runs on RE2 (linear time), as CEL specifies', () => {
  // With JavaScript's backtracking RegExp this filter never finishes (2^40 paths); the test then times out.
  test('a catastrophic-backtracking pattern answers at once', { timeout: 20_000 }, () => {
    const evil = `${'a'.repeat(40)}!`;
    expect(expandMatrix(matrix({ s: [evil, 'aaaa'] }, 's.matches("^(a+)+$")'))).toEqual([{ s: 'aaaa' }]);
    expect(expandMatrix(matrix({ n: [1, 2] }, `"${evil}".matches("^(a+)+$") || n == 2`))).toEqual([{ n: 2 }]);
  });

  test('RE2 semantics: unanchored search, character classes, alternation', () => {
    expect(expandMatrix(matrix({ zone: ['us-west1-a', 'europe-west4-b', 'asia-east1-a'] }, 'zone.matches("west[0-9]-(a|b)$")'))).toEqual([
      { zone: 'us-west1-a' },
      { zone: 'europe-west4-b' },
    ]);
  });

  test('a pattern RE2 does not accept (lookahead, backreference) is a filter error, not a run-time surprise', () => {
    expect(messageOf(() => expandMatrix(matrix({ s: ['ab'] }, 's.matches("a(?=b)")')))).toMatch(/invalid filter: invalid regular expression "a\(\?=b\)" \(CEL uses RE2 syntax/);
    expect(messageOf(() => expandMatrix(matrix({ s: ['aa'] }, 's.matches("(a)\\\\1")')))).toMatch(/invalid filter: invalid regular expression/);
  });

  test('comprehensions nested three deep are refused (each level multiplies the work)', () => {
    const filter = '[1, 2].all(x, [1, 2].all(y, [1, 2].all(z, x + y + z > n)))';
    expect(messageOf(() => expandMatrix(matrix({ n: [0, 1] }, filter)))).toMatch(/comprehensions .* nest deeper than 2 levels/);
    expect(expandMatrix(matrix({ n: [1, 3] }, '[1, 2].all(x, [1, 2].all(y, x + y > n))'))).toEqual([{ n: 1 }]);
  });
});
