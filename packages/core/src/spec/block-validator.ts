import type { z } from '@netbench/plugin-api';
import type { RawIssue } from '../issues/spec-error.js';
import { canonicalJson } from '../matrix/canonical-json.js';
import { findPlaceholders, referencedVariables, substitute } from '../matrix/placeholders.js';
import { ParsedBlocks } from './parsed-blocks.js';
import type { Scalar } from './types.js';
import { zodIssues } from './zod-issues.js';

export interface PluginBlock {
  /** Where the block is in the document (`['hosts', 'client']`). */
  readonly path: readonly (string | number)[];
  /** Plugin-owned fields, as written (may hold `${var}`). */
  readonly fields: Readonly<Record<string, unknown>>;
  readonly schema: z.ZodType;
  /** Core keys of the block, offered as suggestions for unknown keys too. */
  readonly coreKeys: readonly string[];
}

/**
 * Validates plugin blocks against their plugin's schema, once per distinct
 * substituted variant: a 10,000-cell matrix whose blocks take three shapes
 * costs three schema parses. Issues point at the block's original nodes.
 */
export class BlockValidator {
  private readonly memo = new Map<z.ZodType, Map<string, RawIssue[]>>();

  /** `blocks` keeps every parse, so planning does not parse the same block again. */
  constructor(readonly blocks: ParsedBlocks = new ParsedBlocks()) {}

  /**
   * `cells` undefined means the block cannot be expanded (the matrix is
   * invalid, or a `${var}` is undefined): it is checked as written, ignoring
   * problems at the placeholders themselves, so other mistakes still show.
   */
  validate(block: PluginBlock, cells: readonly Readonly<Record<string, Scalar>>[] | undefined): RawIssue[] {
    const vars = referencedVariables(block.fields);
    if (vars.length === 0) return this.validateLiteral(block);
    if (!cells) {
      const holes = findPlaceholders(block.fields).map((use) => use.path.join('.'));
      return this.validateLiteral(block).filter((issue) => {
        const path = issue.path.slice(block.path.length).join('.');
        return !holes.some((hole) => path === hole || path.startsWith(`${hole}.`));
      });
    }

    const out = new Map<string, RawIssue>();
    const seen = new Set<string>();
    for (const cell of cells) {
      const key = vars.map((name) => JSON.stringify(cell[name])).join('\u0000');
      if (seen.has(key)) continue;
      seen.add(key);
      const issues = this.check(block, substitute(block.fields, cell));
      if (issues.length === 0) continue;
      const where = ` (with ${vars.map((name) => `${name}=${String(cell[name])}`).join(', ')})`;
      for (const issue of issues) {
        // Identical problems from several variants are reported once, naming the first.
        const id = `${issue.path.join('.')}\u0000${issue.message}`;
        if (!out.has(id)) out.set(id, at(block, issue, where));
      }
    }
    return [...out.values()];
  }

  /** Validate as written, `${...}` being plain text (publisher settings are not per cell). */
  validateLiteral(block: PluginBlock): RawIssue[] {
    return this.check(block, block.fields).map((issue) => at(block, issue, ''));
  }

  private check(block: PluginBlock, fields: unknown): RawIssue[] {
    let bySchema = this.memo.get(block.schema);
    if (!bySchema) {
      bySchema = new Map();
      this.memo.set(block.schema, bySchema);
    }
    const key = canonicalJson(fields);
    let issues = bySchema.get(key);
    if (!issues) {
      const result = this.blocks.parse(block.schema, fields);
      issues = result.success ? [] : zodIssues(result.error.issues, fields, block.schema, [], block.coreKeys);
      bySchema.set(key, issues);
    }
    return issues;
  }
}

function at(block: PluginBlock, issue: RawIssue, suffix: string): RawIssue {
  return { ...issue, path: [...block.path, ...issue.path], message: issue.message + suffix };
}
