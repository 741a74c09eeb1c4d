import type { Scalar } from '@netbench/plugin-api';
import { VARIABLE_RE } from '../issues/names.js';
import { isPlainObject } from '../matrix/placeholders.js';
import { type AxisFlag, normaliseFlagName, normaliseFlagValue, type PkbFlags } from './flags.js';
import type { Origins, Path, Problems } from './problems.js';
import { PythonExprError, pythonToCel } from './python-expr/to-cel.js';

export interface NativeMatrix {
  axes?: Record<string, Scalar[]>;
  zip?: Record<string, Scalar[]>[];
  filter?: string;
}

export interface PkbMatrix {
  /** Every flag the matrix or zip varies, with its values. */
  readonly axes: ReadonlyMap<string, AxisFlag>;
  readonly matrixAxes: readonly string[];
  readonly zipAxes: readonly string[];
  /** The selected matrix's filter, still in Python, translated once the fixed flags are known. */
  readonly filter?: { readonly source: string; readonly path: Path };
}

/**
 * Read `flag_matrix` / `flag_matrix_defs` / `flag_zip` / `flag_zip_defs` of a
 * benchmark config. PKB crosses every axis of the selected matrix (and the
 * zipped group, advanced together) and runs the benchmark once per cell; so
 * does a netbench matrix, with the same flag names as variables.
 */
export function readMatrix(config: Record<string, unknown>, base: Path, problems: Problems): PkbMatrix {
  const axes = new Map<string, AxisFlag>();
  const matrixAxes = selected(config, base, 'flag_matrix', 'flag_matrix_defs', problems, axes);
  const zipAxes = selected(config, base, 'flag_zip', 'flag_zip_defs', problems, axes);
  if (zipAxes.length > 1) {
    const lengths = zipAxes.map((name) => axes.get(name)?.values.length ?? 0);
    if (new Set(lengths).size > 1)
      problems.error([...base, 'flag_zip_defs', String(config.flag_zip)], `every flag of a zip needs the same number of values (found ${lengths.join(', ')})`);
  }
  const name = typeof config.flag_matrix === 'string' ? config.flag_matrix : undefined;
  const filters = config.flag_matrix_filters;
  let filter: PkbMatrix['filter'];
  if (filters !== undefined && !isPlainObject(filters)) problems.error([...base, 'flag_matrix_filters'], 'flag_matrix_filters must map matrix names to expressions');
  else if (name !== undefined && isPlainObject(filters) && filters[name] !== undefined) {
    const source = filters[name];
    if (typeof source === 'string') filter = { source, path: [...base, 'flag_matrix_filters', name] };
    else problems.error([...base, 'flag_matrix_filters', name], 'a filter is a Python expression in a string, e.g. "zones != extra_zones"');
  }
  return { axes, matrixAxes, zipAxes, ...(filter ? { filter } : {}) };
}

function selected(config: Record<string, unknown>, base: Path, nameKey: string, defsKey: string, problems: Problems, axes: Map<string, AxisFlag>): string[] {
  const name = config[nameKey];
  const defs = config[defsKey];
  if (name === undefined || name === null) {
    if (defs !== undefined) problems.warn([...base, defsKey], `${defsKey} is defined but no ${nameKey} selects one, so (as in PKB) it is not used`);
    return [];
  }
  if (typeof name !== 'string') {
    problems.error([...base, nameKey], `${nameKey} names one entry of ${defsKey}`);
    return [];
  }
  const def = isPlainObject(defs) ? defs[name] : undefined;
  if (!isPlainObject(def)) {
    const known = isPlainObject(defs) ? Object.keys(defs) : [];
    problems.error([...base, nameKey], `'${name}' is not defined in ${defsKey}${known.length > 0 ? ` (defined: ${known.join(', ')})` : ''}`);
    return [];
  }
  const names: string[] = [];
  for (const [written, rawValues] of Object.entries(def)) {
    const path = [...base, defsKey, name, written];
    const flag = normaliseFlagName(written);
    if (!VARIABLE_RE.test(flag)) {
      problems.error(path, `'${written}' is not a flag name`, 'key');
      continue;
    }
    if (axes.has(flag)) {
      problems.error(path, `flag '${flag}' is varied twice (by the matrix and the zip)`, 'key');
      continue;
    }
    if (!Array.isArray(rawValues) || rawValues.length === 0) {
      problems.error(path, 'give the values of this flag as a non-empty list, e.g. [us-west1-a, us-west1-b]');
      continue;
    }
    const values = rawValues.map(normaliseFlagValue);
    const bad = values.find((v) => !(typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'));
    if (bad !== undefined) {
      problems.error(path, `matrix values must be single values (found ${JSON.stringify(bad)}); netbench varies one value per cell`);
      continue;
    }
    axes.set(flag, { values: values as Scalar[], path });
    names.push(flag);
  }
  return names;
}

/** The native `matrix` block, with the filter in CEL. */
export function nativeMatrix(matrix: PkbMatrix, flags: PkbFlags, base: Path, problems: Problems, origins: Origins): NativeMatrix | undefined {
  if (matrix.axes.size === 0) {
    if (matrix.filter) problems.warn(matrix.filter.path, 'a filter without matrix axes does nothing');
    return undefined;
  }
  const out: NativeMatrix = {};
  const valuesOf = (name: string): Scalar[] => [...(matrix.axes.get(name)?.values ?? [])];
  if (matrix.matrixAxes.length > 0) {
    out.axes = Object.fromEntries(matrix.matrixAxes.map((name) => [name, valuesOf(name)]));
    for (const name of matrix.matrixAxes) origins.set(['matrix', 'axes', name], matrix.axes.get(name)?.path ?? base);
  }
  if (matrix.zipAxes.length > 0) {
    out.zip = [Object.fromEntries(matrix.zipAxes.map((name) => [name, valuesOf(name)]))];
    for (const name of matrix.zipAxes) origins.set(['matrix', 'zip', 0, name], matrix.axes.get(name)?.path ?? base);
  }
  if (matrix.filter) {
    const variables = new Map([...matrix.axes].map(([name, axis]) => [name, axis.values]));
    try {
      out.filter = pythonToCel(matrix.filter.source, { variables, constants: flags.constants() });
      origins.set(['matrix', 'filter'], matrix.filter.path);
    } catch (error) {
      if (!(error instanceof PythonExprError)) throw error;
      problems.error(matrix.filter.path, `cannot translate this filter to CEL at character ${error.at + 1}: ${error.message}`);
    }
  }
  return out;
}
