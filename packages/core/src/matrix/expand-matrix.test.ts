import { describe, expect, test } from 'vitest';
import { SpecError } from '../issues/spec-error.js';
import type { MatrixSpec } from '../spec/types.js';
import { expandMatrix } from './expand-matrix.js';

const WEST1 = ['us-west1-a', 'us-west1-b', 'us-west1-c'];
// The 20 zones of the whitepaper's all-region ping matrix (pkb-configs/inter_region_ping_matrix.yaml).
const REGION_ZONES = [
  'asia-east1-a',
  'asia-east2-a',
  'asia-northeast1-a',
  'asia-northeast2-a',
  'asia-south1-a',
  'asia-southeast1-a',
  'australia-southeast1-a',
  'europe-north1-a',
  'europe-west1-c',
  'europe-west2-a',
  'europe-west3-a',
  'europe-west4-a',
  'europe-west6-a',
  'northamerica-northeast1-a',
  'southamerica-east1-a',
  'us-central1-a',
  'us-east1-b',
  'us-east4-a',
  'us-west1-a',
  'us-west2-a',
];

const matrix = (m: Partial<MatrixSpec>): MatrixSpec => ({ axes: {}, zip: [], filters: [], ...m });

describe('expandMatrix', () => {
  test('no matrix is one empty cell', () => {
    expect(expandMatrix(undefined)).toEqual([{}]);
  });

  test('axes are a cartesian product, first axis slowest, values keep their types', () => {
    expect(expandMatrix(matrix({ axes: { zone: ['a', 'b'], streams: [1, 4], tcp: [true] } }))).toEqual([
      { zone: 'a', streams: 1, tcp: true },
      { zone: 'a', streams: 4, tcp: true },
      { zone: 'b', streams: 1, tcp: true },
      { zone: 'b', streams: 4, tcp: true },
    ]);
  });

  test('a zip group advances together and is crossed with the axes', () => {
    const cells = expandMatrix(matrix({ axes: { d: [5, 10] }, zip: [{ region: ['r1', 'r2'], zone2: ['z1', 'z2'] }] }));
    expect(cells).toEqual([
      { d: 5, region: 'r1', zone2: 'z1' },
      { d: 5, region: 'r2', zone2: 'z2' },
      { d: 10, region: 'r1', zone2: 'z1' },
      { d: 10, region: 'r2', zone2: 'z2' },
    ]);
  });

  test('PKB fmatrix: 3 zones x 3 extra zones, zones != extra_zones keeps 6 pairs', () => {
    const cells = expandMatrix(matrix({ axes: { zones: WEST1, extra_zones: WEST1 }, filters: ['zones != extra_zones'] }));
    expect(cells).toHaveLength(6);
    expect(cells.every((c) => c.zones !== c.extra_zones)).toBe(true);
  });

  test('PKB inter-region: 20 zones, zones < extra_zones keeps C(20,2) = 190 pairs', () => {
    expect(REGION_ZONES).toHaveLength(20);
    const cells = expandMatrix(matrix({ axes: { zones: REGION_ZONES, extra_zones: REGION_ZONES }, filters: ['zones < extra_zones'] }));
    expect(cells).toHaveLength(190);
    expect(new Set(cells.map((c) => `${c.zones}|${c.extra_zones}`)).size).toBe(190);
  });

  test('integers are CEL ints, doubles are doubles; every filter must hold; zip variables are visible', () => {
    const cells = expandMatrix(
      matrix({
        axes: { streams: [1, 4, 32], ratio: [0.5, 1.5] },
        zip: [{ region: ['r1', 'r2'], near: [true, false] }],
        filters: ['streams > 4', 'ratio < 1.0', 'near'],
      }),
    );
    expect(cells).toEqual([{ streams: 32, ratio: 0.5, region: 'r1', near: true }]);
  });

  test('a mixed-type axis is dynamic in CEL', () => {
    const cells = expandMatrix(matrix({ axes: { size: [64, 'max'] }, filters: ['size == "max" || size == 64'] }));
    expect(cells).toHaveLength(2);
  });

  test('problems throw a SpecError without positions, all at once', () => {
    const error = (() => {
      try {
        expandMatrix(matrix({ axes: { a: [1, 2], b: [] }, zip: [{ a: [1], c: [1, 2] }], filters: ['a >'] }));
      } catch (e) {
        return e;
      }
      return undefined;
    })() as SpecError;
    expect(error).toBeInstanceOf(SpecError);
    expect(error.issues.map((i) => [i.line, i.path])).toEqual([
      [0, 'matrix.axes.b'],
      [0, 'matrix.zip.0'],
      [0, 'matrix.filter'],
    ]);
    expect(error.message.split('\n')[1]).toBe('matrix.zip.0  zip group 0 needs lists of equal length: a has 1, c has 2');
  });

  test('a variable defined twice, and a reserved word used as a variable in filters', () => {
    expect(() => expandMatrix(matrix({ axes: { a: [1] }, zip: [{ a: [2] }] }))).toThrow("matrix.zip.0.a  matrix variable 'a' is defined twice");
    expect(() => expandMatrix(matrix({ axes: { as: [1, 2] }, filters: ['true'] }))).toThrow(
      /^matrix\.axes\.as {2}'as' cannot be used in filters: Invalid variable declaration: 'as' is a reserved name/,
    );
  });

  test('a filter that drops everything is an error', () => {
    expect(() => expandMatrix(matrix({ axes: { a: [1, 2] }, filters: ['a > 2'] }))).toThrow('the filter drops every one of the 2 matrix cells');
  });

  test('10,000 cells with a filter', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => i);
    const cells = expandMatrix(matrix({ axes: { x: hundred, y: hundred, z: [1, 2] }, filters: ['z == 1 || x >= 0'] }));
    expect(cells).toHaveLength(20_000);
  });
});
