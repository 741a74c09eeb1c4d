import type { z } from 'zod';
import { canonicalJson } from '../matrix/canonical-json.js';
import { specErrorWithoutPositions } from '../spec/spec-error.js';
import { zodIssues } from '../spec/zod-issues.js';

/**
 * Parses substituted blocks with their plugin schema (to get defaults),
 * once per distinct block. A failure here means the Spec did not come
 * from `loadSpec` (which validates every variant), so it has no positions.
 */
export class BlockParser {
  private readonly memo = new Map<z.ZodType, Map<string, unknown>>();

  constructor(private readonly file = '') {}

  parse(schema: z.ZodType, fields: unknown, path: readonly (string | number)[], where: string): unknown {
    let bySchema = this.memo.get(schema);
    if (!bySchema) {
      bySchema = new Map();
      this.memo.set(schema, bySchema);
    }
    const key = canonicalJson(fields);
    if (bySchema.has(key)) return bySchema.get(key);
    const result = schema.safeParse(fields);
    if (!result.success) {
      const issues = zodIssues(result.error.issues, fields, schema, path).map((issue) => ({ ...issue, message: issue.message + where }));
      throw specErrorWithoutPositions(issues, this.file);
    }
    bySchema.set(key, result.data);
    return result.data;
  }
}
