import type { BlockSchema } from '../plugin/common.js';
import { z } from '../plugin/zod.js';
import { type ConformanceCheck, check, fail } from './conformance-check.js';

/** Examples of a plugin's spec block (its own fields only: no `tool`/`cloud`/`type`). */
export interface BlockExamples {
  /**
   * Blocks the schema must accept. Default `[{}]` (every field optional or
   * defaulted); give real ones when a field is required.
   */
  readonly validBlocks?: readonly Record<string, unknown>[];
  /** Blocks the schema must reject (wrong types, out-of-range values). */
  readonly invalidBlocks?: readonly unknown[];
  /** Also require every field to carry a description (`.describe(...)`), which editors and `netbench plugins info` show. */
  readonly requireDescriptions?: boolean;
}

const UNKNOWN_KEY = 'conformanceUnknownField';

type Json = Record<string, unknown>;

/** The JSON Schema `netbench schema` exports for the block (zod 4, input side: what a user may write). */
export function blockJsonSchema(schema: BlockSchema<unknown>): Json {
  return z.toJSONSchema(schema as z.ZodType, { io: 'input' }) as Json;
}

/** Every block-schema check: strict object, JSON Schema export, the examples. */
export function schemaChecks(getSchema: () => BlockSchema<unknown>, what: string, examples: BlockExamples): ConformanceCheck[] {
  // Read when the checks run, not when they are made: examples may need a server a test's beforeAll starts.
  const valid = () => examples.validBlocks ?? [{}];
  return [
    check(`${what} is a strict zod object: an unknown field is an error, not silently ignored`, () => {
      const schema = getSchema();
      if (typeof schema?.safeParse !== 'function') fail(`${what} is not a zod schema`);
      for (const block of valid()) {
        const result = schema.safeParse({ ...block, [UNKNOWN_KEY]: 1 });
        if (result.success) fail(`${what} accepted an unknown field "${UNKNOWN_KEY}"; build it with z.strictObject({...})`);
        const mentions = result.error.issues.some((i) => i.code === 'unrecognized_keys' || JSON.stringify(i).includes(UNKNOWN_KEY));
        if (!mentions) fail(`${what} rejected the unknown field "${UNKNOWN_KEY}" without naming it: ${result.error.message}`);
      }
    }),
    check(`${what} exports to JSON Schema (for editors, \`netbench schema\`)`, () => {
      let json: Json;
      try {
        json = blockJsonSchema(getSchema());
      } catch (error) {
        return fail(
          `${what} cannot be converted to JSON Schema: ${error instanceof Error ? error.message : String(error)}; avoid transforms and custom types in block schemas`,
          error,
        );
      }
      if (json.type !== 'object') fail(`${what} must be an object schema; its JSON Schema type is ${JSON.stringify(json.type ?? 'a union')}`);
      if (json.additionalProperties !== false) fail(`${what}'s JSON Schema allows additional properties; use z.strictObject`);
      JSON.parse(JSON.stringify(json));
      const properties = (json.properties ?? {}) as Record<string, Json>;
      const undocumented = Object.entries(properties)
        .filter(([, p]) => typeof p.description !== 'string' || p.description === '')
        .map(([k]) => k);
      if (examples.requireDescriptions && undocumented.length > 0)
        fail(`${what}: fields without a description (.describe('...')), which editors and \`netbench plugins info\` show: ${undocumented.join(', ')}`);
    }),
    check(`${what} accepts its valid examples and rejects its invalid ones`, () => {
      const schema = getSchema();
      valid().forEach((block, i) => {
        const result = schema.safeParse(block);
        if (!result.success) fail(`valid example #${i} ${JSON.stringify(block)} was rejected: ${result.error.message}`);
      });
      (examples.invalidBlocks ?? []).forEach((block, i) => {
        if (schema.safeParse(block).success) fail(`invalid example #${i} ${JSON.stringify(block)} was accepted`);
      });
    }),
  ];
}

/** Parse a valid example the way the engine does (defaults applied). */
export function parseExample(schema: BlockSchema<unknown>, block: unknown, what: string): unknown {
  const result = schema.safeParse(block);
  if (!result.success) fail(`${what}: example ${JSON.stringify(block)} was rejected: ${result.error.message}`);
  return result.data;
}
