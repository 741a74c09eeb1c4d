import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { ParseOptions } from '../plugin/tool.js';
import { type ConformanceCheck, check, errorText, fail } from './conformance-check.js';
import { deepFreeze } from './deep-freeze.js';
import { garbageInputs } from './garbage.js';
import { optionInjectionCheck } from './option-injection.js';
import { expectPlugin, identityChecks, type PathLike, toPath } from './plugin-identity.js';
import { sampleProblems } from './sample-shape.js';
import { type BlockExamples, parseExample, schemaChecks } from './schema-checks.js';
import { toolCountersCheck } from './tool-counters-check.js';

/** A file name or a pattern over file names. */
export type FileMatcher = string | RegExp;

export interface ToolFixtures {
  /** Folder of outputs captured from the real tool (`src/__fixtures__`). */
  readonly dir: PathLike;
  /** Files in it that are not tool output (a README, the capture commands). */
  readonly ignore?: readonly FileMatcher[];
  /**
   * Outputs `parse` must reject (error runs, hand-broken files): with a
   * `ParseError`, or the plugin's own error for a failure the tool reported
   * (e.g. a `RetryableError`), naming the file. Every other file must give samples.
   */
  readonly rejects?: readonly FileMatcher[];
  /** Parse options for a file (e.g. the test name a CSV output does not state). `source` is always the file name. */
  readonly options?: (file: string) => ParseOptions | undefined;
}

export interface ToolConformanceOptions extends BlockExamples {
  /** The plugin's package.json: its `netbench` declaration must match the plugin. */
  readonly packageJson?: PathLike;
  /** Captured outputs; every file in `dir` is checked (or listed in `ignore`). */
  readonly fixtures: ToolFixtures;
  /** More inputs the parser must reject, beyond the kit's own garbage. */
  readonly garbage?: readonly string[];
}

const matches = (file: string, list: readonly FileMatcher[] | undefined) => (list ?? []).some((m) => (typeof m === 'string' ? m === file : m.test(file)));

const isParseError = (error: unknown): error is Error =>
  // By name, not instanceof: the plugin may carry its own copy of @netbench/core.
  error instanceof Error && error.name === 'ParseError';

/**
 * The conformance checks of a tool plugin: identity, a strict block schema
 * that exports to JSON Schema, pure and well-formed `trials`, and a `parse`
 * that reads every captured fixture into valid samples and rejects garbage
 * with a `ParseError` naming the source; `run` never passes an address to
 * the tool where it could be read as an option (`option-injection.ts`);
 * an optional `counters` hook gives valid counters, purely (`tool-counters-check.ts`).
 */
export function toolConformance(value: unknown, options: ToolConformanceOptions): ConformanceCheck[] {
  const plugin = () => expectPlugin(value, 'tool');
  const dir = toPath(options.fixtures.dir);
  let files: string[];
  try {
    files = readdirSync(dir)
      .filter((f) => !matches(f, options.fixtures.ignore))
      .sort();
  } catch (error) {
    return [check('has captured fixtures', () => fail(`cannot read the fixtures folder ${dir}`, error))];
  }
  const parseOptions = (file: string): ParseOptions => ({ ...options.fixtures.options?.(file), source: file });

  return [
    ...identityChecks(value, 'tool', options.packageJson),
    ...schemaChecks(() => plugin().schema, 'the benchmark block schema', options),
    check('trials(params) is pure and describes every trial fully', () => {
      const tool = plugin();
      for (const block of options.validBlocks ?? [{}]) {
        const params = deepFreeze(parseExample(tool.schema, block, 'trials'));
        let first;
        try {
          first = tool.trials(params);
        } catch (error) {
          return fail(`trials(${JSON.stringify(params)}) threw ${errorText(error)} (it must not mutate its input or do I/O)`, error);
        }
        if (!Array.isArray(first) || first.length === 0) fail(`trials(${JSON.stringify(params)}) returned no trials`);
        if (!isDeepStrictEqual(first, tool.trials(params))) fail(`trials(${JSON.stringify(params)}) returned different trials on a second call; it must be pure`);
        for (const trial of first) {
          if (typeof trial.test !== 'string' || trial.test === '') fail(`a trial has no test name: ${JSON.stringify(trial)}`);
          if (!(Number.isFinite(trial.estimatedSeconds) && trial.estimatedSeconds >= 0)) fail(`trial ${trial.test}: estimatedSeconds must be a finite number ≥ 0`);
          for (const [key, v] of Object.entries(trial.params ?? fail(`trial ${trial.test} has no params`))) {
            // An `undefined` parameter is no parameter (TrialParams): the plan leaves it out.
            if (v === undefined) continue;
            if (!['string', 'number', 'boolean'].includes(typeof v)) fail(`trial ${trial.test}: param ${key} must be a string, number or boolean (it becomes a label)`);
          }
        }
      }
    }),
    optionInjectionCheck(plugin, options.validBlocks ?? [{}]),
    check('has captured fixtures', () => {
      if (files.length === 0) fail(`no fixtures in ${dir}: capture real outputs of the tool there`);
      const rejected = files.filter((f) => matches(f, options.fixtures.rejects));
      if (rejected.length === files.length) fail('every fixture is one parse must reject; capture successful runs too');
    }),
    ...files.map((file) =>
      matches(file, options.fixtures.rejects)
        ? check(`parse rejects ${file} with an error naming it`, () => {
            expectRejection(() => plugin().parse(readFileSync(join(dir, file), 'utf8'), parseOptions(file)), file, file, false);
          })
        : check(`parse reads ${file} into valid samples`, () => {
            const text = readFileSync(join(dir, file), 'utf8');
            let samples;
            try {
              samples = plugin().parse(text, parseOptions(file));
            } catch (error) {
              return fail(`parse(${file}) threw ${errorText(error)}; list it in fixtures.rejects if the tool reported an error`, error);
            }
            if (!Array.isArray(samples) || samples.length === 0) fail(`parse(${file}) returned no samples`);
            const problems = samples.flatMap(sampleProblems);
            if (problems.length > 0) fail(`parse(${file}): ${problems.slice(0, 5).join('; ')}`);
          }),
    ),
    ...toolCountersCheck(
      plugin,
      () => files.filter((f) => !matches(f, options.fixtures.rejects)).map((file) => ({ file, text: readFileSync(join(dir, file), 'utf8'), options: parseOptions(file) })),
      options.validBlocks ?? [{}],
    ),
    check('parse rejects garbage with a clear ParseError naming the source', () => {
      const inputs = [...garbageInputs(), ...(options.garbage ?? []).map((text, i) => ({ label: `garbage #${i}`, text }))];
      for (const { label, text } of inputs) expectRejection(() => plugin().parse(text, { source: 'conformance-garbage.txt' }), label, 'conformance-garbage.txt', true);
    }),
  ];
}

// What a bug throws, as opposed to a parser that recognised bad input.
const PROGRAMMING_ERRORS = ['TypeError', 'RangeError', 'ReferenceError', 'SyntaxError'];

function expectRejection(parse: () => unknown, what: string, source: string, parseErrorOnly: boolean): void {
  let result: unknown;
  try {
    result = parse();
  } catch (error) {
    if (!(error instanceof Error)) fail(`parse of ${what} threw ${String(error)}, not an Error`);
    if (parseErrorOnly ? !isParseError(error) : PROGRAMMING_ERRORS.includes(error.name)) fail(`parse of ${what} threw ${errorText(error)}, not a ParseError`, error);
    if (error.message.trim().length < 8) fail(`parse of ${what}: the error message ${JSON.stringify(error.message)} does not say what is wrong`);
    if (!error.message.includes(source)) fail(`parse of ${what}: the error does not name the source (${source}): ${error.message}`);
    return;
  }
  fail(`parse accepted ${what} and returned ${JSON.stringify(result)?.slice(0, 200)}; it must throw a ParseError`);
}
