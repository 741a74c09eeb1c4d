import type { z } from '@netbench/plugin-api';

interface Def {
  readonly type?: string;
  readonly innerType?: z.ZodType;
  readonly in?: z.ZodType;
  readonly shape?: Record<string, z.ZodType>;
  readonly element?: z.ZodType;
  readonly valueType?: z.ZodType;
}

const WRAPPERS = new Set(['optional', 'default', 'prefault', 'nullable', 'readonly', 'catch', 'nonoptional']);

function defOf(schema: z.ZodType | undefined): Def | undefined {
  return (schema as unknown as { _zod?: { def?: Def } } | undefined)?._zod?.def;
}

function unwrap(schema: z.ZodType | undefined): z.ZodType | undefined {
  let current = schema;
  for (let i = 0; i < 20 && current; i++) {
    const def = defOf(current);
    if (def?.type && WRAPPERS.has(def.type)) current = def.innerType;
    else if (def?.type === 'pipe') current = def.in;
    else break;
  }
  return current;
}

/**
 * Field names an object schema accepts at `path`, to suggest a fix for an
 * unknown key. Best effort: reads zod's definition, gives up on anything
 * but objects, arrays and records.
 */
export function knownKeysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let current = unwrap(schema);
  for (const segment of path) {
    const def = defOf(current);
    if (def?.type === 'object') current = def.shape?.[String(segment)];
    else if (def?.type === 'array') current = def.element;
    else if (def?.type === 'record') current = def.valueType;
    else return [];
    current = unwrap(current);
  }
  const def = defOf(current);
  return def?.type === 'object' && def.shape ? Object.keys(def.shape) : [];
}
