import { describe, expect, test } from 'vitest';
import { expandMatrix } from '../../matrix/expand-matrix.js';
import type { Scalar } from '../../spec/types.js';
import { PythonExprError, pythonToCel } from './to-cel.js';

const ZONES = ['us-west1-a', 'us-west1-b', 'us-central1-a'];

function translate(source: string, variables: Record<string, Scalar[]> = { zones: ZONES, extra_zones: ZONES }, constants: Record<string, unknown> = {}): string {
  return pythonToCel(source, { variables: new Map(Object.entries(variables)), constants: new Map(Object.entries(constants)) });
}

/** Cells the translated filter keeps, evaluated by netbench's real CEL engine. */
function kept(source: string, axes: Record<string, Scalar[]> = { zones: ZONES, extra_zones: ZONES }, constants: Record<string, unknown> = {}) {
  return expandMatrix({ axes, zip: [], filters: [translate(source, axes, constants)] });
}

describe('PKB flag_matrix_filters to CEL', () => {
  test('the whitepaper filters read the same in CEL', () => {
    expect(translate('zones != extra_zones')).toBe('zones != extra_zones');
    expect(translate('zones < extra_zones')).toBe('zones < extra_zones');
    expect(kept('zones != extra_zones')).toHaveLength(6);
    // Python compares strings by code point, CEL too: C(3,2) ordered pairs.
    expect(kept('zones < extra_zones')).toHaveLength(3);
  });

  test('boolean operators, not, and chained comparisons', () => {
    expect(translate('not zones == extra_zones and zones != "x" or False')).toBe('!(zones == extra_zones) && zones != "x" || false');
    expect(translate('1 < streams <= 8', { streams: [1, 4, 8, 32] })).toBe('1 < streams && streams <= 8');
    expect(kept('1 < streams <= 8', { streams: [1, 4, 8, 32] }).map((c) => c.streams)).toEqual([4, 8]);
    expect(translate('(a or b) and c', { a: [true], b: [false], c: [true] })).toBe('(a || b) && c');
  });

  test('in and not in: list membership and substrings', () => {
    expect(translate("zones in ['us-west1-a', 'us-west1-b']")).toBe('zones in ["us-west1-a", "us-west1-b"]');
    expect(translate("zones not in ('us-west1-a',)")).toBe('!(zones in ["us-west1-a"])');
    expect(translate("'central' in zones")).toBe('zones.contains("central")');
    expect(kept("'central' not in zones and 'central' not in extra_zones")).toHaveLength(4);
  });

  test('region of a zone by slicing, splitting or rsplit-like prefixes', () => {
    expect(translate('zones[:-2] != extra_zones[:-2]')).toBe('zones.substring(0, zones.size() - 2) != extra_zones.substring(0, extra_zones.size() - 2)');
    // Inter-region pairs only: us-west1 x us-central1 in both orders.
    expect(kept('zones[:-2] != extra_zones[:-2]')).toHaveLength(4);
    expect(kept("zones.split('-')[1] == extra_zones.split('-')[1]")).toHaveLength(5);
    expect(translate("zones.split('-')[-1]")).toBe('zones.split("-")[size(zones.split("-")) - 1]');
    expect(kept("zones.startswith(('us-west1', 'eu')) and extra_zones.endswith('a')").map((c) => `${c.zones}/${c.extra_zones}`)).toEqual([
      'us-west1-a/us-west1-a',
      'us-west1-a/us-central1-a',
      'us-west1-b/us-west1-a',
      'us-west1-b/us-central1-a',
    ]);
  });

  test('flags set in flags: are inlined, as PKB evaluates over every flag', () => {
    expect(translate("machine_type == 'n1-standard-16' and zones != extra_zones", undefined, { machine_type: 'n1-standard-16' })).toBe(
      '"n1-standard-16" == "n1-standard-16" && zones != extra_zones',
    );
    expect(kept('streams * 2 > limit', { streams: [1, 4, 32] }, { limit: 8 }).map((c) => c.streams)).toEqual([32]);
    expect(kept('streams / 2 == 2.0', { streams: [1, 4, 32] }).map((c) => c.streams)).toEqual([4]);
    // us-central1-a (13 characters) against the two other zones.
    expect(kept('len(zones) > 11 if zones != extra_zones else False')).toHaveLength(2);
  });

  test('what cannot be translated says where and why', () => {
    const error = (source: string) => {
      try {
        translate(source);
      } catch (e) {
        expect(e).toBeInstanceOf(PythonExprError);
        return `${(e as PythonExprError).at}: ${(e as Error).message}`;
      }
      throw new Error(`no error for ${source}`);
    };
    expect(error('zone != extra_zones')).toBe("0: name 'zone' is neither a flag of the matrix nor set in flags (matrix flags: zones, extra_zones)");
    expect(error('__import__("os").system("true")')).toMatch(/function '__import__' is not supported/);
    expect(error('lambda: 1')).toBe("0: 'lambda' is not supported in a filter");
    expect(error('zones and extra_zones')).toMatch(/'and' needs true\/false here, not a string/);
    expect(error('zones.replace("a", "b") == zones')).toMatch(/method 'replace' is not supported/);
    expect(error('zones[::2] == zones')).toMatch(/step/);
    expect(error('zones != ')).toBe('9: the expression ends too early');
    expect(error('zones ~= extra_zones')).toBe("6: unexpected character '~'");
    expect(error("zones == 'open")).toBe('9: unterminated string');
  });
});
