import { isDeepStrictEqual } from 'node:util';
import type { ParseOptions, ToolPlugin } from '../plugin/tool.js';
import { toolCounterProblem } from '../plugin/tool-counter-problem.js';
import { type ConformanceCheck, check, errorText, fail } from './conformance-check.js';
import { deepFreeze } from './deep-freeze.js';
import { parseExample } from './schema-checks.js';

/**
 * For a tool with the optional `counters` hook: over the samples `parse`
 * makes of every fixture it reads, `counters` is pure (same answer twice,
 * input deep-frozen), never throws, and returns only valid counters
 * (snake-case name, finite value, unit, role client/server); and at least
 * one fixture gives a counter, so the hook is exercised by real output.
 */
export function toolCountersCheck(
  plugin: () => ToolPlugin<unknown>,
  fixtures: () => readonly { readonly file: string; readonly text: string; readonly options: ParseOptions }[],
  blocks: readonly unknown[],
): ConformanceCheck[] {
  let declared: boolean;
  try {
    declared = typeof plugin().counters === 'function';
  } catch {
    declared = false;
  }
  if (!declared) return [];
  return [
    check('counters (optional hook) turns the samples of every fixture into valid counters, purely', () => {
      const tool = plugin();
      const trial = tool.trials(parseExample(tool.schema, blocks[0] ?? {}, 'counters'))[0] ?? fail('trials returned no trial to give counters');
      let found = 0;
      const all = fixtures();
      for (const { file, text, options } of all) {
        let samples;
        try {
          samples = tool.parse(text, options);
        } catch {
          continue; // its own check reports it
        }
        const input = deepFreeze({ test: trial.test, params: trial.params, client: { name: 'client' }, server: { name: 'server' }, samples });
        let first;
        try {
          first = tool.counters!(input);
        } catch (error) {
          return fail(`counters(samples of ${file}) threw ${errorText(error)}; it must be pure and never throw on samples parse made`, error);
        }
        if (!Array.isArray(first)) fail(`counters(samples of ${file}) returned ${JSON.stringify(first)}, not an array`);
        const problems = first.map(toolCounterProblem).filter((p) => p !== undefined);
        if (problems.length > 0) fail(`counters(samples of ${file}): ${problems.slice(0, 3).join('; ')}`);
        if (!isDeepStrictEqual(first, tool.counters!(input))) fail(`counters(samples of ${file}) answered differently on a second call; it must be pure`);
        found += first.length;
      }
      if (found === 0) fail(`counters returned no counter for any of the ${all.length} fixtures: capture an output the tool reports its counters in`);
    }),
  ];
}
