import type { z } from '@netbench/plugin-api';
import type { RawIssue } from '../issues/spec-error.js';
import { isPlainObject } from '../matrix/placeholders.js';
import { suggestion } from './did-you-mean.js';
import { knownKeysAt } from './schema-keys.js';

type Path = readonly (string | number)[];

/**
 * Turn zod issues of `input` (validated by `schema`, found at `base` in the
 * document) into document issues: one per unknown key (pointing at the key),
 * missing fields named as such, and every nested union branch flattened.
 */
export function zodIssues(issues: readonly z.core.$ZodIssue[], input: unknown, schema: z.ZodType, base: Path = [], extra: Iterable<string> = []): RawIssue[] {
  const out: RawIssue[] = [];
  for (const issue of issues) {
    const local = issue.path.map((part) => (typeof part === 'number' ? part : String(part)));
    const path = [...base, ...local];
    if (issue.code === 'unrecognized_keys') {
      const known = [...knownKeysAt(schema, local), ...extra];
      for (const key of issue.keys) {
        out.push({ path: [...path, key], message: `unknown field '${key}'${suggestion(key, known)}`, anchor: 'key' });
      }
    } else if (issue.code === 'invalid_key') {
      const inner = issue.issues[0]?.message ?? issue.message;
      out.push({ path, message: `invalid name '${String(local.at(-1))}': ${inner}`, anchor: 'key' });
    } else if (issue.code === 'invalid_type' && !has(input, local)) {
      out.push({ path, message: `missing required field '${String(local.at(-1))}' (expected ${issue.expected})` });
    } else {
      out.push({ path, message: tidy(issue.message) });
    }
  }
  return out;
}

/** zod's `Invalid input: expected number, received string` reads better as `expected number, got string`. */
function tidy(message: string): string {
  return message
    .replace(/^Invalid input: expected (.+), received (.+)$/, 'expected $1, got $2')
    .replace(
      /^Invalid option: expected one of (.+)$/,
      (_, list: string) =>
        `expected one of ${list
          .split('|')
          .map((v) => v.replace(/^"(.*)"$/, '$1'))
          .join(', ')}`,
    )
    .replace(/^Too (?:small|big): expected (\w+) to (be|have) (.+)$/, '$1 must $2 $3');
}

function has(value: unknown, path: Path): boolean {
  let current = value;
  for (const part of path) {
    if (Array.isArray(current) && typeof part === 'number') current = current[part];
    else if (isPlainObject(current) && Object.hasOwn(current, String(part))) current = current[String(part)];
    else return false;
  }
  return current !== undefined;
}
