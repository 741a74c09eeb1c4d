import { z } from './zod.js';

/** The metadata key that marks a schema as a secret (also visible in the exported JSON Schema). */
export const SECRET_META = 'netbenchSecret';
/** What a secret value is replaced with wherever a spec is stored or shown. */
export const REDACTED = '[redacted]';

/**
 * Mark a field of a plugin's schema as a secret (a password, a key
 * passphrase, a connection string that may hold one). netbench then never
 * stores or shows its value: the run's spec.yaml, results.json, the results
 * store, exports and reports get `[redacted]` instead, and the spec may
 * give it as a reference — `${env:NAME}` or `${file:/path}` — read when
 * the spec is loaded. Use it on the innermost schema:
 * `secret(z.string()).optional().describe(...)`.
 */
export function secret<T extends z.ZodType>(schema: T): T {
  return schema.meta({ [SECRET_META]: true }) as T;
}

/** True when the schema itself was marked with `secret()`. */
export function isSecret(schema: z.ZodType): boolean {
  return (z.globalRegistry.get(schema) as Record<string, unknown> | undefined)?.[SECRET_META] === true;
}

/** A path into a block's value; `*` stands for any key or index. */
export type SecretPath = readonly string[];

interface Def {
  readonly type?: string;
  readonly shape?: Record<string, z.ZodType>;
  readonly innerType?: z.ZodType;
  readonly options?: readonly z.ZodType[];
  readonly in?: z.ZodType;
  readonly out?: z.ZodType;
  readonly element?: z.ZodType;
  readonly valueType?: z.ZodType;
  readonly left?: z.ZodType;
  readonly right?: z.ZodType;
}

/** Every path of a schema that leads to a secret, found from the schema alone (no value needed). */
export function secretPaths(schema: z.ZodType): SecretPath[] {
  const out = new Map<string, SecretPath>();
  const seen = new Set<z.ZodType>();
  const walk = (node: z.ZodType | undefined, path: string[]): void => {
    if (!node || path.length > 32) return;
    if (isSecret(node)) {
      out.set(path.join('\u0000'), path);
      return;
    }
    if (seen.has(node)) return; // recursive schemas
    seen.add(node);
    const def = (node as unknown as { _zod?: { def?: Def } })._zod?.def;
    if (!def) return;
    switch (def.type) {
      case 'object':
        for (const [key, child] of Object.entries(def.shape ?? {})) walk(child, [...path, key]);
        break;
      case 'optional':
      case 'nullable':
      case 'default':
      case 'prefault':
      case 'readonly':
      case 'catch':
      case 'nonoptional':
        walk(def.innerType, path);
        break;
      case 'union':
        for (const option of def.options ?? []) walk(option, path);
        break;
      case 'intersection':
        walk(def.left, path);
        walk(def.right, path);
        break;
      case 'pipe':
        walk(def.in, path);
        break;
      case 'array':
        walk(def.element, [...path, '*']);
        break;
      case 'record':
        walk(def.valueType, [...path, '*']);
        break;
    }
    seen.delete(node);
  };
  walk(schema, []);
  return [...out.values()];
}

/** The concrete paths in `value` that a secret path matches, with the value found there. */
export function matchSecretPaths(value: unknown, paths: readonly SecretPath[]): { path: (string | number)[]; value: unknown }[] {
  const found: { path: (string | number)[]; value: unknown }[] = [];
  const visit = (node: unknown, rest: readonly string[], at: (string | number)[]): void => {
    if (rest.length === 0) {
      if (node !== undefined) found.push({ path: at, value: node });
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    const [head, ...tail] = rest as [string, ...string[]];
    if (Array.isArray(node)) {
      if (head === '*') node.forEach((item, i) => visit(item, tail, [...at, i]));
      return;
    }
    const record = node as Record<string, unknown>;
    if (head === '*') for (const key of Object.keys(record)) visit(record[key], tail, [...at, key]);
    else if (Object.hasOwn(record, head)) visit(record[head], tail, [...at, head]);
  };
  for (const path of paths) visit(value, path, []);
  return found;
}
