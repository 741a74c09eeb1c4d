import type { z } from '@netbench/plugin-api';
import { canonicalJson } from '../matrix/canonical-json.js';

/**
 * Plugin blocks parsed by their plugin's schema, kept by schema and content.
 * Validation (`loadSpec`) fills it and planning reads it, so each distinct
 * block — a benchmark's parameters, a host's fields — is parsed once on its
 * way from the spec to a tool's `trials` and `run`; the typed result (defaults
 * applied) is what the plan carries onward.
 */
export class ParsedBlocks {
  private readonly bySchema = new WeakMap<z.ZodType, Map<string, z.ZodSafeParseResult<unknown>>>();
  private count = 0;

  /** `schema.safeParse(fields)`, once per distinct (schema, fields). */
  parse(schema: z.ZodType, fields: unknown): z.ZodSafeParseResult<unknown> {
    let byContent = this.bySchema.get(schema);
    if (!byContent) {
      byContent = new Map();
      this.bySchema.set(schema, byContent);
    }
    const key = canonicalJson(fields);
    let result = byContent.get(key);
    if (!result) {
      result = schema.safeParse(fields);
      this.count += 1;
      byContent.set(key, result);
    }
    return result;
  }

  /** How many times a schema really ran (for tests: validation and planning share the work). */
  get parses(): number {
    return this.count;
  }
}
