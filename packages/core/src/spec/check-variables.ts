import type { RawIssue } from '../issues/spec-error.js';
import { findPlaceholders } from '../matrix/placeholders.js';
import { suggestion } from './did-you-mean.js';

/** Report every `${var}` that names no matrix variable, at the string holding it. Returns true when all are defined. */
export function checkVariables(value: unknown, base: readonly (string | number)[], variables: ReadonlySet<string>, issues: RawIssue[]): boolean {
  let ok = true;
  for (const use of findPlaceholders(value)) {
    if (variables.has(use.name)) continue;
    ok = false;
    const known = variables.size > 0 ? `; matrix variables: ${[...variables].join(', ')}` : '; the spec has no matrix';
    issues.push({ path: [...base, ...use.path], message: `undefined matrix variable '${use.name}'${suggestion(use.name, variables)}${known}` });
  }
  return ok;
}
