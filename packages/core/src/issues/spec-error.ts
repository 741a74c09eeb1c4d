import { NetbenchError } from '@netbench/plugin-api';
import { printable } from '../errors/printable.js';

/** One problem in a spec file. `line`/`col` are 1-based; 0 when the problem has no place in a file. */
export interface SpecIssue {
  readonly file: string;
  readonly line: number;
  readonly col: number;
  /** Dotted path of the offending field (`benchmarks.0.duration`). */
  readonly path: string;
  readonly message: string;
}

/** `FILE:LINE:COL  path.to.field  message`; the position part shrinks when unknown. Control characters from the spec are escaped. */
export function formatIssue(issue: SpecIssue): string {
  const where = issue.line > 0 ? `${issue.file}:${issue.line}:${issue.col}` : issue.file;
  return printable([where, issue.path, issue.message].filter((part) => part !== '').join('  '));
}

/** The spec is invalid. Carries every problem found, not only the first. */
export class SpecError extends NetbenchError {
  override readonly name: string = 'SpecError';
  override readonly exitCode: number = 2;
  readonly issues: readonly SpecIssue[];

  constructor(issues: readonly SpecIssue[]) {
    super(issues.map(formatIssue).join('\n'));
    this.issues = issues;
  }
}

/** A problem found before positions are known: a path into the spec document. */
export interface RawIssue {
  readonly path: readonly (string | number)[];
  readonly message: string;
  /** Point at the key of the last path segment (unknown keys) rather than its value. */
  readonly anchor?: 'key' | 'value';
}

/** Path as shown to users. */
export function formatPath(path: readonly (string | number)[]): string {
  return path.length === 0 ? '(spec)' : path.join('.');
}

/** A SpecError for issues that have no file (standalone `expandMatrix`, a hand-built Spec). */
export function specErrorWithoutPositions(issues: readonly RawIssue[], file = ''): SpecError {
  return new SpecError(issues.map((issue) => ({ file, line: 0, col: 0, path: formatPath(issue.path), message: issue.message })));
}
