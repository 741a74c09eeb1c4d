import { open } from 'node:fs/promises';
import { NetbenchError } from '@netbench/plugin-api';
import { type Document, isAlias, type LineCounter, visit } from 'yaml';
import { type RawIssue, SpecError, type SpecIssue } from '../issues/spec-error.js';
import { deeperThan } from './text-depth.js';

/** The largest spec read: 1 MiB. Real specs are a few KiB; a bigger file is a mistake or an attack (memory). */
export const MAX_SPEC_BYTES = 1024 * 1024;
/** How many alias expansions one document may make (YAML "billion laughs" stop here). */
export const MAX_ALIAS_COUNT = 1000;
/** Deeper nesting than this is refused before anything walks the document recursively. */
export const MAX_SPEC_DEPTH = 64;
/** The text pre-scan's bound: generous (it may over-count), and far below where the YAML library's recursion overflows (~900). */
const TEXT_DEPTH_BOUND = 2 * MAX_SPEC_DEPTH;
export const DEPTH_MESSAGE = `the spec nests deeper than ${MAX_SPEC_DEPTH} levels`;
/** Keys that would reach an object's prototype when used as a record key. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

const LIMIT_MIB = MAX_SPEC_BYTES / 1024 / 1024;

/** The spec's text, refusing a file over `MAX_SPEC_BYTES` before reading it. */
export async function readSpecText(file: string): Promise<string> {
  let handle;
  try {
    handle = await open(file, 'r');
    const { size, isDirectory } = await handle.stat().then((s) => ({ size: s.size, isDirectory: s.isDirectory() }));
    if (isDirectory) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    if (size > MAX_SPEC_BYTES) throw tooBigError(file, size);
    const buffer = Buffer.alloc(Math.min(size, MAX_SPEC_BYTES) + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    // A file that grew (or a pipe that reports size 0) is still capped.
    if (bytesRead > MAX_SPEC_BYTES) throw tooBigError(file, bytesRead);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } catch (error) {
    if (error instanceof NetbenchError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new NetbenchError(`spec file not found: ${file}`, { cause: error });
    if (code === 'EISDIR') throw new NetbenchError(`spec file is a directory: ${file}`, { cause: error });
    throw new NetbenchError(`cannot read spec file ${file}: ${(error as Error).message}`, { cause: error });
  } finally {
    await handle?.close();
  }
}

function tooBigError(file: string, bytes: number): SpecError {
  return new SpecError([{ file, line: 1, col: 1, path: '(spec)', message: tooBig(bytes) }]);
}

/** A spec given as text (desktop app, `--set` tests) over the limit: one issue at 1:1. */
export function sizeIssue(file: string, text: string): SpecIssue | undefined {
  const bytes = Buffer.byteLength(text, 'utf8');
  return bytes > MAX_SPEC_BYTES ? { file, line: 1, col: 1, path: '(spec)', message: tooBig(bytes) } : undefined;
}

function tooBig(bytes: number): string {
  const size = bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : `${bytes} bytes`;
  return `the spec is ${size}; the limit is ${LIMIT_MIB} MiB (a spec is a few KiB; generate big matrices with 'matrix' instead)`;
}

/**
 * A text (a spec, a `--set` value) nested far deeper than any spec may be,
 * found before the YAML library parses it recursively: the documented limit's
 * error at the place it is passed, instead of V8's stack overflow.
 */
export function nestingIssue(file: string, text: string, lineOf: (offset: number) => { line: number; col: number }): SpecIssue | undefined {
  const deep = deeperThan(text, TEXT_DEPTH_BOUND);
  if (!deep) return undefined;
  const { line, col } = lineOf(deep.offset);
  return { file, line, col, path: '(spec)', message: DEPTH_MESSAGE };
}

/** Line and column (1-based) of an offset, without parsing the text. */
export function textPosition(text: string, offset: number): { line: number; col: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line += 1;
    lineStart = i + 1;
  }
  return { line, col: offset - lineStart + 1 };
}

/**
 * The document as plain data, or issues with positions: an alias to an
 * anchor that does not exist, and too many alias expansions, are spec errors
 * (the YAML library throws them as ReferenceError).
 */
export function toPlainData(doc: Document, lineCounter: LineCounter, file: string): { raw: unknown } | { issues: SpecIssue[] } {
  const at = (offset: number | undefined, message: string): SpecIssue => {
    const { line, col } = lineCounter.linePos(offset ?? 0);
    return { file, line, col, path: '', message };
  };
  const unresolved: SpecIssue[] = [];
  let firstAlias: number | undefined;
  let aliases = 0;
  let tooMany: number | undefined;
  // One pass in document order: an anchor is defined before its aliases, so a set of the anchors seen so far
  // answers each alias (node.resolve searches the whole document for each: quadratic in the alias count).
  const anchors = new Set<string>();
  visit(doc, {
    Node(_key, node) {
      if (isAlias(node)) {
        firstAlias ??= node.range?.[0];
        aliases += 1;
        // Past the expansion limit the document is refused anyway: stop here, whatever its size.
        if (aliases > MAX_ALIAS_COUNT) {
          tooMany = node.range?.[0];
          return visit.BREAK;
        }
        if (!anchors.has(node.source)) unresolved.push(at(node.range?.[0], `alias *${node.source} refers to no anchor (define &${node.source} before using it)`));
      } else if (node.anchor) {
        anchors.add(node.anchor);
      }
      return undefined;
    },
  });
  if (tooMany !== undefined) return { issues: [at(tooMany, tooManyAliases())] };
  if (unresolved.length > 0) return { issues: unresolved };
  try {
    return { raw: doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/alias count/i.test(message)) {
      return { issues: [at(firstAlias, tooManyAliases())] };
    }
    if (error instanceof RangeError && /call stack/i.test(message)) return { issues: [at(0, DEPTH_MESSAGE)] };
    if (/alias/i.test(message) || error instanceof RangeError) return { issues: [at(firstAlias, `the YAML cannot be read: ${message.split('\n')[0]}`)] };
    throw error;
  }
}

function tooManyAliases(): string {
  return `YAML aliases expand to too much data (more than ${MAX_ALIAS_COUNT} alias expansions); write the values out or use 'matrix'`;
}

/**
 * Structural problems the schema cannot see because they break the code
 * that walks the document: a value that contains itself (an alias to its
 * own anchor, from the file or a `--set`), keys like `__proto__`, and
 * nesting deeper than `MAX_SPEC_DEPTH`. Reported at their path.
 */
export function structureIssues(raw: unknown): RawIssue[] {
  const issues: RawIssue[] = [];
  const stack = new Set<object>();
  const walk = (value: unknown, path: (string | number)[]): void => {
    if (issues.length >= 20 || typeof value !== 'object' || value === null) return;
    if (stack.has(value)) {
      issues.push({ path, message: 'this value contains itself (a YAML alias to its own anchor); a spec must be a tree' });
      return;
    }
    if (path.length > MAX_SPEC_DEPTH) {
      issues.push({ path: path.slice(0, MAX_SPEC_DEPTH), message: `the spec nests deeper than ${MAX_SPEC_DEPTH} levels` });
      return;
    }
    stack.add(value);
    if (Array.isArray(value)) {
      value.forEach((item, i) => walk(item, [...path, i]));
    } else {
      for (const key of Object.keys(value)) {
        if (FORBIDDEN_KEYS.has(key)) {
          issues.push({ path: [...path, key], anchor: 'key', message: `'${key}' cannot be used as a name or key (it is reserved in JavaScript objects)` });
          continue;
        }
        walk((value as Record<string, unknown>)[key], [...path, key]);
      }
    }
    stack.delete(value);
  };
  walk(raw, []);
  return issues;
}
