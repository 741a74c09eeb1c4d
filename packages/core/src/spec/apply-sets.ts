import { type Document, isMap, isScalar, isSeq, parse as parseYaml, YAMLMap } from 'yaml';
import type { SpecIssue } from '../issues/spec-error.js';
import { DEPTH_MESSAGE, nestingIssue } from './spec-limits.js';

/**
 * Apply `--set key=value` overrides to the document before validation, so
 * they are checked like the file itself. `key` is a dotted path (numbers
 * index lists); `value` is read as a YAML scalar or flow value; missing maps
 * on the way are created.
 */
export function applySets(doc: Document, sets: readonly string[]): { issues: SpecIssue[]; paths: string[][] } {
  const issues: SpecIssue[] = [];
  const paths: string[][] = [];
  for (const set of sets) {
    const fail = (message: string): void => void issues.push({ file: '--set', line: 0, col: 0, path: set, message });
    const eq = set.indexOf('=');
    if (eq <= 0) {
      fail('expected key=value, e.g. options.concurrency=2');
      continue;
    }
    const key = set.slice(0, eq).trim();
    const parts = key.split('.');
    if (parts.some((part) => part === '')) {
      fail(`'${key}' is not a valid path (empty segment)`);
      continue;
    }
    let value: unknown;
    try {
      const text = set.slice(eq + 1);
      // Refused before the YAML library's recursive parser meets it (V8's stack overflow).
      if (nestingIssue('--set', text, () => ({ line: 0, col: 0 }))) {
        fail(`the value ${DEPTH_MESSAGE.replace('the spec ', '')}`);
        continue;
      }
      value = text.trim() === '' ? '' : parseYaml(text);
    } catch (error) {
      fail(`the value is not valid YAML: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
      continue;
    }
    const problem = setIn(doc, parts, value);
    if (problem) fail(problem);
    else paths.push(parts);
  }
  return { issues, paths };
}

/** Returns a problem description, or undefined when the value was set. */
function setIn(doc: Document, parts: readonly string[], value: unknown): string | undefined {
  if (doc.contents === null || doc.contents === undefined) doc.contents = new YAMLMap();
  let node: unknown = doc.contents;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as string;
    const last = i === parts.length - 1;
    const where = parts.slice(0, i).join('.') || 'the spec';
    if (isMap(node)) {
      if (last) {
        node.set(doc.createNode(part), doc.createNode(value));
        return undefined;
      }
      let child: unknown = node.get(part, true);
      if (child === undefined || child === null || (isScalar(child) && child.value === null)) {
        child = new YAMLMap();
        node.set(doc.createNode(part), child);
      }
      node = child;
    } else if (isSeq(node)) {
      const index = /^\d+$/.test(part) ? Number(part) : NaN;
      if (Number.isNaN(index)) return `${where} is a list; '${part}' is not an index`;
      if (index >= node.items.length) {
        return `${where} has no item ${index} (it has ${node.items.length} item${node.items.length === 1 ? '' : 's'})`;
      }
      if (last) {
        node.items[index] = doc.createNode(value);
        return undefined;
      }
      node = node.items[index];
    } else {
      return `${where} is a single value, not a map; cannot set '${part}' in it`;
    }
  }
  return undefined;
}
