import type { z } from '@netbench/plugin-api';
import { specErrorWithoutPositions } from '../issues/spec-error.js';
import { ParsedBlocks } from '../spec/parsed-blocks.js';
import { zodIssues } from '../spec/zod-issues.js';

/**
 * Parses substituted blocks with their plugin schema (to get defaults),
 * once per distinct block, sharing the parses validation made. A failure here means the Spec did not come
 * from `loadSpec` (which validates every variant), so it has no positions.
 */
export class BlockParser {
  /** `blocks`: what `loadSpec` already parsed (its `LoadedSpec.blocks`); a block it parsed is not parsed again. */
  constructor(
    private readonly file = '',
    private readonly blocks: ParsedBlocks = new ParsedBlocks(),
  ) {}

  parse(schema: z.ZodType, fields: unknown, path: readonly (string | number)[], where: string): unknown {
    const result = this.blocks.parse(schema, fields);
    if (!result.success) {
      const issues = zodIssues(result.error.issues, fields, schema, path).map((issue) => ({ ...issue, message: issue.message + where }));
      throw specErrorWithoutPositions(issues, this.file);
    }
    return result.data;
  }
}
