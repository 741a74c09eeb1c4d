// Property-based fuzzing (fast-check, fixed seed, time budget) of everything that reads untrusted text:
// the spec loader and every tool parser. Each must return or throw the project's own error
// (SpecError / ParseError, or a tool's own reported failure) — never a TypeError, RangeError or any other exception — and never hang
// (a hang fails the test by its timeout). A counterexample is printed with its seed and path to replay.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRegistry, loadSpec, type PluginResolver, SpecError } from '@netbench/core';
import { NetbenchError, ParseError } from '@netbench/plugin-api';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { repoRoot } from './helpers/cli.js';

const SEED = 20261125;
const registry: PluginResolver = createRegistry({ searchDirs: [join(repoRoot, 'packages/cli')], userPlugins: false });

/** The fixture files of a folder (real tool outputs and specs), as seeds for mutation. */
function seeds(dir: string, pattern: RegExp): string[] {
  return readdirSync(dir)
    .filter((f) => pattern.test(f) && !/^(COMMANDS|README)/.test(f))
    .map((f) => readFileSync(join(dir, f), 'utf8'));
}

const WEIRD_NUMBERS = ['0', '-1', '-0', '1e308', '-1e308', '1e-320', 'NaN', 'nan', 'inf', '-inf', 'Infinity', '99999999999999999999999', '0x1F', '1.2.3', '', '٣', '１'];

/** One edit of a text: the ways real outputs get damaged (truncated, lines lost or doubled, numbers garbled, junk inserted). */
const mutation = fc.oneof(
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('drop-line' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('dup-line' as const), at: fc.nat(), times: fc.integer({ min: 1, max: 50 }) }),
  fc.record({ kind: fc.constant('number' as const), at: fc.nat(), value: fc.constantFrom(...WEIRD_NUMBERS) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: fc.string({ unit: 'binary', maxLength: 40 }) }),
  fc.record({ kind: fc.constant('swap-lines' as const), at: fc.nat(), with: fc.nat() }),
);
type Mutation = typeof mutation extends fc.Arbitrary<infer M> ? M : never;

function mutate(text: string, edits: readonly Mutation[]): string {
  let out = text;
  for (const edit of edits) {
    const lines = out.split('\n');
    const line = lines.length > 0 ? edit.at % lines.length : 0;
    switch (edit.kind) {
      case 'truncate':
        out = out.slice(0, out.length === 0 ? 0 : edit.at % out.length);
        break;
      case 'drop-line':
        lines.splice(line, 1);
        out = lines.join('\n');
        break;
      case 'dup-line':
        lines.splice(line, 0, ...Array<string>(edit.times).fill(lines[line] ?? ''));
        out = lines.join('\n');
        break;
      case 'number': {
        const numbers = [...out.matchAll(/-?\d+(?:\.\d+)?(?:e[+-]?\d+)?/gi)];
        const hit = numbers.length > 0 ? numbers[edit.at % numbers.length] : undefined;
        if (hit?.index !== undefined) out = out.slice(0, hit.index) + edit.value + out.slice(hit.index + hit[0].length);
        break;
      }
      case 'insert': {
        const at = out.length === 0 ? 0 : edit.at % out.length;
        out = out.slice(0, at) + edit.text + out.slice(at);
        break;
      }
      case 'swap-lines': {
        const other = lines.length > 0 ? edit.with % lines.length : 0;
        [lines[line], lines[other]] = [lines[other] ?? '', lines[line] ?? ''];
        out = lines.join('\n');
        break;
      }
    }
  }
  return out;
}

/** Inputs for a reader: damaged real inputs, arbitrary text, arbitrary JSON. */
function inputs(real: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.tuple(fc.constantFrom(...real), fc.array(mutation, { minLength: 1, maxLength: 6 })).map(([text, edits]) => mutate(text, edits)) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 3000 }) },
    { weight: 1, arbitrary: fc.json({ maxDepth: 6 }) },
    { weight: 1, arbitrary: fc.array(fc.constantFrom(...real.flatMap((t) => t.split('\n'))), { maxLength: 60 }).map((lines) => lines.join('\n')) },
  );
}

const options = (numRuns: number, ms: number) => ({ seed: SEED, numRuns, interruptAfterTimeLimit: ms, markInterruptAsFailure: false });

const PARSERS = [
  { tool: 'ping', fixtures: 'packages/plugins/ping/src/__fixtures__' },
  { tool: 'netperf', fixtures: 'packages/plugins/netperf/src/__fixtures__' },
  { tool: 'iperf', fixtures: 'packages/plugins/iperf/src/__fixtures__' },
  { tool: 'iperf3', fixtures: 'packages/plugins/iperf3/src/__fixtures__' },
  { tool: 'fping', fixtures: 'packages/plugins/fping/src/__fixtures__' },
  { tool: 'hping3', fixtures: 'packages/plugins/hping3/src/__fixtures__' },
  { tool: 'pktgen', fixtures: 'packages/plugins/pktgen/src/__fixtures__' },
] as const;

describe('tool parsers return samples or throw ParseError, whatever the output', () => {
  it.each(PARSERS)('$tool', { timeout: 60_000 }, async ({ tool, fixtures }) => {
    const plugin = await registry.get('tool', tool);
    expect(plugin).toBeDefined();
    const real = seeds(join(repoRoot, fixtures), /\.(txt|json|out)$/);
    expect(real.length).toBeGreaterThan(0);
    const tests = [undefined, ...plugin!.trials(plugin!.schema.parse({}) as never).map((t) => t.test)];
    fc.assert(
      fc.property(inputs(real), fc.constantFrom(...tests), (raw, test) => {
        try {
          const samples = plugin!.parse(raw, { source: 'fuzz', ...(test ? { test } : {}) });
          expect(Array.isArray(samples)).toBe(true);
          for (const s of samples) expect(typeof s.value === 'number' && typeof s.metric === 'string').toBe(true);
        } catch (error) {
          // ParseError, or the project's error for a failure the tool itself reported (iperf3's JSON "error").
          if (!(error instanceof ParseError) && !(error instanceof NetbenchError && /reported an error/.test(error.message))) throw error;
        }
      }),
      options(1000, 15_000),
    );
  });
});

describe('the spec loader returns a spec or throws SpecError, whatever the text', () => {
  const examples = seeds(join(repoRoot, 'examples'), /\.yaml$/);

  it('damaged example specs, arbitrary text and arbitrary YAML documents', { timeout: 120_000 }, async () => {
    const scalar = fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.constantFrom('__proto__', 'constructor', '${x}', '${env:HOME}', '*a', '&a', '!!binary', '<<'),
    );
    const specLike = fc
      .record(
        {
          name: scalar,
          hosts: fc.dictionary(
            fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('__proto__', 'a', 'b')),
            fc.record({ cloud: fc.constantFrom('local', 'static', 'aws', 'x'), zone: scalar }, { requiredKeys: [] }),
          ),
          benchmarks: fc.array(
            fc.record({ tool: fc.constantFrom('ping', 'netperf', 'iperf3', 'fping', 'nope'), client: scalar, server: scalar, count: scalar }, { requiredKeys: [] }),
            { maxLength: 3 },
          ),
          matrix: fc.record(
            {
              axes: fc.dictionary(fc.string({ maxLength: 6 }), fc.array(scalar, { maxLength: 3 })),
              filter: fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('zone.matches("^(a+)+$")', 'x > 1', '[1].all(i, i > 0)')),
            },
            { requiredKeys: [] },
          ),
        },
        { requiredKeys: [] },
      )
      .map((doc) => stringify(doc));
    const text = fc.oneof(
      { weight: 5, arbitrary: inputs(examples) },
      { weight: 3, arbitrary: specLike },
      {
        weight: 1,
        arbitrary: fc.anything({ maxDepth: 4 }).map((v) => {
          try {
            return stringify(v) ?? '';
          } catch {
            return String(v);
          }
        }),
      },
    );
    const sets = fc.array(
      fc.oneof(
        fc.string({ maxLength: 30 }),
        fc.constantFrom('name=&a [*a]', 'hosts.a=&a {x: *a}', 'hosts.__proto__.cloud=local', 'benchmarks.0.count=1e308', 'options.concurrency=-1'),
      ),
      { maxLength: 2 },
    );
    await fc.assert(
      fc.asyncProperty(text, sets, async (spec, set) => {
        try {
          const loaded = await loadSpec({ text: spec, file: 'fuzz.yaml' }, registry, { sets: set });
          expect(typeof loaded.spec.name).toBe('string');
        } catch (error) {
          if (!(error instanceof SpecError)) throw error;
          expect(error.exitCode).toBe(2);
        }
      }),
      options(500, 60_000),
    );
  });

  it('nesting and alias bombs of any shape and size: the documented limits, never a stack overflow', { timeout: 120_000 }, async () => {
    const head = 'name: x\nhosts:\n  a: { cloud: local }\nbenchmarks: []\n';
    const open = fc.constantFrom('[', '{k: ', '[{k: ');
    const nested = fc.tuple(open, fc.integer({ min: 65, max: 6000 })).map(([o, depth]) => {
      const close = o === '[' ? ']' : o === '{k: ' ? '}' : '}]';
      return `${head}deep: ${o.repeat(depth)}1${close.repeat(depth)}\n`;
    });
    const block = fc.integer({ min: 65, max: 1300 }).map((depth) => `${head}deep:\n${Array.from({ length: depth }, (_, i) => `${' '.repeat(i + 1)}k:`).join('\n')} 1\n`);
    const aliases = fc.integer({ min: 1001, max: 30_000 }).map((n) => `${head}x: &a [1, 2]\nl:\n${'  - *a\n'.repeat(n)}`);
    await fc.assert(
      fc.asyncProperty(fc.oneof(nested, block, aliases), async (spec) => {
        const error = await loadSpec({ text: spec, file: 'fuzz.yaml' }, registry).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(SpecError);
        expect((error as SpecError).message).toMatch(/nests deeper than 64 levels|more than 1000 alias expansions/);
      }),
      options(60, 60_000),
    );
  });
});
