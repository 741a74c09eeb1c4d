import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { PluginKind } from '@netbench/plugin-api';
import { matchSecretPaths, REDACTED, secretPaths } from '@netbench/plugin-api';
import { parseDocument } from 'yaml';
import type { RawIssue } from '../issues/spec-error.js';
import { isPlainObject } from '../matrix/placeholders.js';
import type { PluginResolver } from '../registry/types.js';

/** `${env:NAME}` or `${file:/path}`: a secret given by reference, read when the spec is loaded. */
export const SECRET_REFERENCE_RE = /^\$\{(env|file):([^}]+)\}$/;

export interface SpecSecrets {
  readonly issues: RawIssue[];
  /** Document paths of secrets written literally in the spec: redacted wherever the spec is stored or shown. */
  readonly literals: (string | number)[][];
}

/**
 * Find the fields of a spec document that plugins' schemas mark as secret
 * (see `secret()`), replace references (`${env:NAME}`, `${file:PATH}`) with
 * what they name — in `raw`, which is what the plugins get — and list the
 * literal secrets so the stored and shown spec text can be redacted. Only
 * secret fields take references: a spec cannot copy a file or variable into
 * a field that is published.
 */
export async function resolveSecrets(raw: unknown, resolver: PluginResolver): Promise<SpecSecrets> {
  const issues: RawIssue[] = [];
  const literals: (string | number)[][] = [];
  if (!isPlainObject(raw)) return { issues, literals };
  const blocks: { kind: PluginKind; name: unknown; path: (string | number)[]; value: Record<string, unknown> }[] = [];
  if (isPlainObject(raw.hosts))
    for (const [name, host] of Object.entries(raw.hosts)) if (isPlainObject(host)) blocks.push({ kind: 'cloud', name: host.cloud, path: ['hosts', name], value: host });
  if (Array.isArray(raw.benchmarks)) raw.benchmarks.forEach((b, i) => isPlainObject(b) && blocks.push({ kind: 'tool', name: b.tool, path: ['benchmarks', i], value: b }));
  if (Array.isArray(raw.publish)) raw.publish.forEach((p, i) => isPlainObject(p) && blocks.push({ kind: 'publisher', name: p.type, path: ['publish', i], value: p }));

  for (const block of blocks) {
    if (typeof block.name !== 'string') continue;
    let plugin;
    try {
      plugin = await resolver.get(block.kind, block.name);
    } catch {
      continue; // checkSpec reports a plugin that cannot load
    }
    if (!plugin) continue;
    const schema = plugin.kind === 'cloud' ? plugin.hostSchema : plugin.schema;
    for (const found of matchSecretPaths(block.value, secretPaths(schema))) {
      const path = [...block.path, ...found.path];
      const reference = typeof found.value === 'string' ? SECRET_REFERENCE_RE.exec(found.value) : null;
      if (!reference) {
        literals.push(path);
        continue;
      }
      const resolved = readReference(reference[1] as 'env' | 'file', (reference[2] as string).trim());
      if ('problem' in resolved) issues.push({ path, message: resolved.problem });
      else setAt(block.value, found.path, resolved.value);
    }
  }
  return { issues, literals };
}

function readReference(kind: 'env' | 'file', target: string): { value: string } | { problem: string } {
  if (kind === 'env') {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(target)) return { problem: `\${env:${target}}: not an environment variable name` };
    const value = process.env[target];
    return value === undefined ? { problem: `\${env:${target}}: the environment variable ${target} is not set` } : { value };
  }
  const file = target === '~' || target.startsWith('~/') ? join(homedir(), target.slice(2)) : target;
  if (!isAbsolute(file)) return { problem: `\${file:${target}}: give an absolute path (or ~/...)` };
  try {
    // One trailing newline is the file's, not the secret's.
    return { value: readFileSync(file, 'utf8').replace(/\r?\n$/, '') };
  } catch (error) {
    return { problem: `\${file:${target}}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
  }
}

function setAt(root: Record<string, unknown>, path: readonly (string | number)[], value: unknown): void {
  let node: unknown = root;
  for (const key of path.slice(0, -1)) node = (node as Record<string | number, unknown>)[key];
  (node as Record<string | number, unknown>)[path.at(-1) as string | number] = value;
}

/**
 * The spec text with every literal secret replaced by `[redacted]`: what is
 * written to the run folder, results.json and the store, and shown. Unchanged
 * (byte for byte) when the spec holds no literal secret.
 */
export function redactSpecText(text: string, literals: readonly (readonly (string | number)[])[]): string {
  if (literals.length === 0) return text;
  const doc = parseDocument(text);
  let changed = false;
  for (const path of literals) {
    if (!doc.hasIn(path)) continue;
    doc.setIn(path, REDACTED);
    changed = true;
  }
  return changed ? doc.toString() : text;
}
