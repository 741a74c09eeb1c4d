import type { Scalar } from '@netbench/plugin-api';
import type { RawIssue } from '../issues/spec-error.js';
import type { MatrixSpec } from './types.js';

/** One dimension of the product: a single axis, or a zip group whose variables advance together. */
export interface MatrixDimension {
  readonly names: readonly string[];
  /** `rows[i][j]` is the value of `names[j]` at step `i`. */
  readonly rows: readonly (readonly Scalar[])[];
}

export interface MatrixVariables {
  /** Every variable, axes first, in declaration order. */
  readonly names: readonly string[];
  readonly values: ReadonlyMap<string, readonly Scalar[]>;
  readonly dimensions: readonly MatrixDimension[];
  readonly issues: readonly RawIssue[];
}

/** Read axes and zip groups into product dimensions; report empty lists, duplicates and unequal zips. */
export function matrixVariables(matrix: MatrixSpec): MatrixVariables {
  const issues: RawIssue[] = [];
  const values = new Map<string, readonly Scalar[]>();
  const dimensions: MatrixDimension[] = [];
  const define = (name: string, list: readonly Scalar[], path: (string | number)[]): boolean => {
    if (values.has(name)) {
      issues.push({ path, message: `matrix variable '${name}' is defined twice`, anchor: 'key' });
      return false;
    }
    if (list.length === 0) {
      issues.push({ path, message: `matrix variable '${name}' has no values` });
      return false;
    }
    values.set(name, list);
    return true;
  };

  for (const [name, list] of Object.entries(matrix.axes)) {
    if (define(name, list, ['matrix', 'axes', name])) dimensions.push({ names: [name], rows: list.map((value) => [value]) });
  }
  matrix.zip.forEach((group, index) => {
    const entries = Object.entries(group);
    const lengths = new Set(entries.map(([, list]) => list.length));
    if (lengths.size > 1) {
      const detail = entries.map(([name, list]) => `${name} has ${list.length}`).join(', ');
      issues.push({ path: ['matrix', 'zip', index], message: `zip group ${index} needs lists of equal length: ${detail}` });
      return;
    }
    const names = entries.filter(([name, list]) => define(name, list, ['matrix', 'zip', index, name])).map(([name]) => name);
    if (names.length !== entries.length || names.length === 0) return;
    const length = entries[0]?.[1].length ?? 0;
    const rows: Scalar[][] = [];
    for (let i = 0; i < length; i++) rows.push(entries.map(([, list]) => list[i] as Scalar));
    dimensions.push({ names, rows });
  });
  return { names: [...values.keys()], values, dimensions, issues };
}
