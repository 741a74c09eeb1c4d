import type { Scalar } from '@netbench/plugin-api';
import { type RawIssue, specErrorWithoutPositions } from '../issues/spec-error.js';
import { type CompiledFilter, celMessage, FilterCompiler } from './cel-filter.js';
import { type MatrixDimension, matrixVariables } from './matrix-variables.js';
import type { MatrixSpec } from './types.js';

/** A product larger than this is almost certainly a mistake, and would exhaust memory. */
export const MAX_MATRIX_CELLS = 1_000_000;
/** Filters that take longer than this over the whole matrix stop with a spec error (each evaluation is bounded; this bounds their sum). */
export const FILTER_BUDGET_MS = 5_000;

export type Cell = Record<string, Scalar>;

export interface MatrixExpansion {
  /** Cells kept by the filters, in product order (first axis varies slowest). */
  readonly cells: Cell[];
  /** Cells before filtering. */
  readonly total: number;
  readonly variables: readonly string[];
  readonly issues: RawIssue[];
}

export interface ExpandOptions {
  /** Document path of each filter, for error positions (the loader knows whether `filter` was a list). */
  readonly filterPaths?: readonly (readonly (string | number)[])[];
}

/** Expand a matrix into cells, collecting every problem instead of throwing. */
export function expandMatrixChecked(matrix: MatrixSpec | undefined, options: ExpandOptions = {}): MatrixExpansion {
  if (!matrix) return { cells: [{}], total: 1, variables: [], issues: [] };
  const vars = matrixVariables(matrix);
  const issues: RawIssue[] = [...vars.issues];
  const filterPath = (i: number): readonly (string | number)[] => options.filterPaths?.[i] ?? (matrix.filters.length > 1 ? ['matrix', 'filter', i] : ['matrix', 'filter']);

  const total = vars.dimensions.reduce((n, dim) => n * dim.rows.length, 1);
  if (total > MAX_MATRIX_CELLS) {
    issues.push({ path: ['matrix'], message: `the matrix has ${total} cells before filters; the limit is ${MAX_MATRIX_CELLS}` });
  }

  const filters: CompiledFilter[] = [];
  let compiler: FilterCompiler | undefined;
  if (matrix.filters.length > 0) {
    compiler = new FilterCompiler(vars.values);
    for (const problem of compiler.variableIssues) issues.push({ path: variablePath(matrix, problem.name), message: problem.message, anchor: 'key' });
    matrix.filters.forEach((source, i) => {
      const result = compiler!.compile(source, i);
      if (result.ok) filters.push(result.filter);
      else issues.push({ path: filterPath(i), message: result.message });
    });
  }
  if (issues.length > 0) return { cells: [], total, variables: vars.names, issues };

  const cells: Cell[] = [];
  const failed = new Set<number>();
  const deadline = Date.now() + FILTER_BUDGET_MS;
  let seen = 0;
  for (const cell of product(vars.dimensions)) {
    seen++;
    if (compiler && Date.now() > deadline) {
      issues.push({
        path: filters.length > 1 ? ['matrix', 'filter'] : filterPath(0),
        message: `the filters took more than ${FILTER_BUDGET_MS / 1000} s (stopped after ${seen - 1} of ${total} cells); simplify them`,
      });
      return { cells: [], total, variables: vars.names, issues };
    }
    if (compiler && !keep(cell, compiler, filters, failed, issues, filterPath)) continue;
    cells.push(cell);
  }
  if (issues.length === 0 && cells.length === 0) {
    const which = filters.length > 1 ? `the filters drop` : `the filter drops`;
    issues.push({ path: filters.length > 1 ? ['matrix', 'filter'] : filterPath(0), message: `${which} every one of the ${total} matrix cells` });
  }
  return { cells, total, variables: vars.names, issues };
}

/** Public form: cells, or a `SpecError` (without positions) listing every problem. */
export function expandMatrix(matrix: MatrixSpec | undefined): Array<Record<string, Scalar>> {
  const expansion = expandMatrixChecked(matrix);
  if (expansion.issues.length > 0) throw specErrorWithoutPositions(expansion.issues);
  return expansion.cells;
}

function keep(
  cell: Cell,
  compiler: FilterCompiler,
  filters: readonly CompiledFilter[],
  failed: Set<number>,
  issues: RawIssue[],
  filterPath: (i: number) => readonly (string | number)[],
): boolean {
  const context = compiler.context(cell);
  for (const filter of filters) {
    try {
      if (!filter.test(context)) return false;
    } catch (error) {
      // Report a failing filter once, with the first cell it failed on.
      if (!failed.has(filter.index)) {
        failed.add(filter.index);
        const values = Object.entries(cell)
          .map(([k, v]) => `${k}=${String(v)}`)
          .join(', ');
        issues.push({ path: filterPath(filter.index), message: `filter failed for cell ${values}: ${celMessage(error)}` });
      }
      return false;
    }
  }
  return true;
}

/** Odometer over the dimensions; the last dimension varies fastest. */
function* product(dimensions: readonly MatrixDimension[]): Generator<Cell> {
  const counters = dimensions.map(() => 0);
  if (dimensions.some((dim) => dim.rows.length === 0)) return;
  for (;;) {
    const cell: Cell = {};
    dimensions.forEach((dim, d) => {
      const row = dim.rows[counters[d] as number] as readonly Scalar[];
      dim.names.forEach((name, j) => (cell[name] = row[j] as Scalar));
    });
    yield cell;
    let d = dimensions.length - 1;
    while (d >= 0) {
      counters[d] = (counters[d] as number) + 1;
      if ((counters[d] as number) < (dimensions[d] as MatrixDimension).rows.length) break;
      counters[d] = 0;
      d--;
    }
    if (d < 0) return;
  }
}

function variablePath(matrix: MatrixSpec, name: string): (string | number)[] {
  if (Object.hasOwn(matrix.axes, name)) return ['matrix', 'axes', name];
  const group = matrix.zip.findIndex((g) => Object.hasOwn(g, name));
  return ['matrix', 'zip', group, name];
}
