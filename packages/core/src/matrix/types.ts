import type { Scalar } from '@netbench/plugin-api';

export interface MatrixSpec {
  /** Cartesian product of every axis. */
  readonly axes: Readonly<Record<string, readonly Scalar[]>>;
  /** Groups of axes advanced together (equal lengths), crossed with `axes`. */
  readonly zip: readonly Readonly<Record<string, readonly Scalar[]>>[];
  /**
   * CEL expressions; a cell is kept when every one is true. The file's
   * `matrix.filter` (one string or a list) is normalised to this list.
   */
  readonly filters: readonly string[];
}
