import type { BlockSchema } from '@netbench/plugin-api';
import { NetbenchError } from '@netbench/plugin-api';

/**
 * Apply a plugin's block schema (defaults, coercions) to a block the spec
 * loader validated but kept as written (publisher settings).
 */
export function parseBlock<T>(schema: BlockSchema<T>, block: unknown, where: string): T {
  const result = schema.safeParse(block);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `${[where, ...issue.path.map(String)].join('.')}: ${issue.message}`);
  throw new NetbenchError(problems.join('\n'));
}
