// The kit itself: it passes a good plugin and catches each way a plugin can break the contract.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ParseError } from '../errors/index.js';
import { definePlugin } from '../plugin/define-plugin.js';
import { z } from '../plugin/zod.js';
import type { ConformanceCheck } from './conformance-check.js';
import { cloudConformance, publisherConformance, toolConformance } from './index.js';

const fixtures = new URL('./__fixtures__/', import.meta.url);
const root = await mkdtemp(join(tmpdir(), 'nbt-kit-'));
afterAll(() => rm(root, { recursive: true, force: true }));

/** Names of the checks that fail, with their messages. */
async function failures(checks: readonly ConformanceCheck[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const check of checks) {
    try {
      await check.run();
    } catch (error) {
      out[check.name] = error instanceof Error ? error.message : String(error);
    }
  }
  return out;
}

const schema = z.strictObject({ n: z.int().default(1).describe('How many.') });
const tool = (overrides: Record<string, unknown>) =>
  definePlugin({
    kind: 'tool',
    name: 'kit-tool',
    schema,
    trials: (p) => [{ test: 'x', params: { n: p.n }, estimatedSeconds: 1 }],
    check: async () => ({ version: '1', features: {} }),
    run: async () => ({ samples: [] }),
    parse(raw, options) {
      const m = /^value (\d+)$/m.exec(raw);
      if (!m) throw new ParseError('no value line', options?.source, 1);
      return [{ metric: 'value', value: Number(m[1]), unit: 'count' }];
    },
    ...overrides,
  });
const toolOptions = { fixtures: { dir: new URL('tool-outputs/', fixtures), rejects: ['error.txt'] } };

describe('toolConformance', () => {
  it('passes a plugin that keeps the contract', async () => {
    expect(await failures(toolConformance(tool({}), toolOptions))).toEqual({});
  });

  it('accepts an undefined trial parameter (no parameter, as TrialParams says) and still refuses a non-scalar one', async () => {
    const optional = await failures(
      toolConformance(tool({ trials: (p: { n: number }) => [{ test: 'x', params: { n: p.n, window: undefined }, estimatedSeconds: 1 }] }), toolOptions),
    );
    expect(optional).toEqual({});
    const nested = await failures(toolConformance(tool({ trials: () => [{ test: 'x', params: { n: { deep: 1 } }, estimatedSeconds: 1 }] }), toolOptions));
    expect(Object.values(nested).join('\n')).toMatch(/param n must be a string, number or boolean/);
  });

  it('catches a loose schema, impure trials, a parser that accepts garbage or crashes', async () => {
    const loose = await failures(toolConformance(tool({ schema: z.object({ n: z.int().default(1) }) }), toolOptions));
    expect(Object.values(loose).join('\n')).toMatch(/accepted an unknown field/);
    const impure = await failures(
      toolConformance(
        tool({
          trials: (p: { n: number }) => {
            (p as { n: number }).n += 1;
            return [];
          },
        }),
        toolOptions,
      ),
    );
    expect(Object.values(impure).join('\n')).toMatch(/trials\(\{"n":1\}\) threw TypeError/);
    const lenient = await failures(toolConformance(tool({ parse: () => [{ metric: 'value', value: 0, unit: 'count' }] }), toolOptions));
    expect(Object.values(lenient).join('\n')).toMatch(/parse accepted empty output/);
    const crashing = await failures(toolConformance(tool({ parse: (raw: string) => [{ metric: 'v', value: JSON.parse(raw).x.y, unit: 'ms' }] }), toolOptions));
    expect(Object.values(crashing).join('\n')).toMatch(/threw SyntaxError|threw TypeError/);
    const nan = await failures(
      toolConformance(tool({ parse: () => [{ metric: 'value', value: Number.NaN, unit: '' }] }), {
        ...toolOptions,
        fixtures: { dir: toolOptions.fixtures.dir, ignore: ['error.txt'] },
      }),
    );
    expect(Object.values(nan).join('\n')).toMatch(/value of value must be a finite number.*unit of value must be a non-empty string/);
  });

  it('checks an optional counters hook: valid, pure and given something by the fixtures', async () => {
    const counted = (counters: (input: { samples: readonly { value: number }[] }) => unknown) => toolConformance(tool({ counters }), toolOptions);
    const name = 'counters (optional hook) turns the samples of every fixture into valid counters, purely';
    expect(await failures(counted((i) => i.samples.map((s) => ({ name: 'tool_value', value: s.value, unit: 'count', role: 'server' }))))).toEqual({});
    expect((await failures(counted(() => [{ name: 'Bad Name', value: 1, unit: 'count' }])))[name]).toMatch(/counter name "Bad Name" is not snake case/);
    expect((await failures(counted(() => [{ name: 'x', value: Number.NaN, unit: 'count' }])))[name]).toMatch(/value NaN is not a finite number/);
    let calls = 0;
    expect((await failures(counted(() => [{ name: 'x', value: (calls += 1), unit: 'count' }])))[name]).toMatch(/answered differently on a second call/);
    expect((await failures(counted(() => [])))[name]).toMatch(/returned no counter for any of the \d+ fixtures/);
    expect(
      (
        await failures(
          counted(() => {
            throw new TypeError('boom');
          }),
        )
      )[name],
    ).toMatch(/threw TypeError: boom/);
    // A tool without the hook has no such check.
    expect(toolConformance(tool({}), toolOptions).map((c) => c.name)).not.toContain(name);
  });

  it('catches a run that passes an address where the tool reads options', async () => {
    const address = 'run refuses a server address that reads as an option (-f/etc/passwd)';
    const argvTool = (argv: (target: string) => string[]) =>
      tool({
        run: async (trial: { client: { exec(a: string[]): Promise<unknown> }; target: string }) => {
          await trial.client.exec(argv(trial.target));
          throw new Error('no output');
        },
      });
    expect(
      (
        await failures(
          toolConformance(
            argvTool((t) => ['fping', '-C', '1', t]),
            toolOptions,
          ),
        )
      )[address],
    ).toMatch(/reached argv where the tool reads options: \["fping","-C","1","-f\/etc\/passwd"\]/);
    expect(
      (
        await failures(
          toolConformance(
            argvTool((t) => ['fping', '-C', '1', '--', t]),
            toolOptions,
          ),
        )
      )[address],
    ).toBeUndefined();
    // Failing for another reason before the address is looked at proves nothing.
    expect(
      (
        await failures(
          toolConformance(
            tool({
              run: async () => {
                throw new Error('no port in the server handle');
              },
            }),
            toolOptions,
          ),
        )
      )[address],
    ).toMatch(/not because of the address/);
  });

  it('requires a brand and every fixture to be accounted for', async () => {
    const unbranded = await failures(toolConformance({ ...tool({}) }, toolOptions));
    expect(Object.values(unbranded)[0]).toMatch(/not a netbench plugin/);
    const unlisted = await failures(toolConformance(tool({}), { fixtures: { dir: toolOptions.fixtures.dir } }));
    expect(unlisted['parse reads error.txt into valid samples']).toMatch(/threw ParseError.*list it in fixtures.rejects/);
  });
});

describe('cloudConformance', () => {
  const module = new URL('folder-cloud.mjs', fixtures);
  const options = () => ({
    module,
    validBlocks: [{ root }],
    goneResources: [{ type: 'folder', id: join(root, 'never-made') }],
    provision: { hosts: { a: { root }, b: { root } }, exists: async (r: { id: string }) => (await import('node:fs')).existsSync(r.id) },
  });
  const load = async (behaviour: string) => {
    // A fresh module instance per behaviour; the fresh teardown process reads the variable too.
    process.env['NBT_CLOUD_BEHAVIOUR'] = behaviour;
    return (await import(`${module.href}?${behaviour}`)).default as unknown;
  };

  it('passes a cloud whose teardown works from the ledger alone, idempotently', async () => {
    expect(await failures(cloudConformance(await load('good'), options()))).toEqual({});
  }, 60_000);

  it("catches teardown that needs provision's closures, is not idempotent, or leaks", async () => {
    const closure = await failures(cloudConformance(await load('closure'), options()));
    expect(Object.values(closure).join('\n')).toMatch(/teardown failed: folder .*unknown folder/);
    const strict = await failures(cloudConformance(await load('strict'), options()));
    expect(Object.values(strict).join('\n')).toMatch(/ENOENT/);
    const leaky = await failures(cloudConformance(await load('leaky'), options()));
    expect(Object.values(leaky).join('\n')).toMatch(/still exists after teardown/);
    process.env['NBT_CLOUD_BEHAVIOUR'] = 'good';
  }, 120_000);

  it('tears down through teardownMany when the cloud has it, and catches a batch that leaks or miscounts', async () => {
    expect(await failures(cloudConformance(await load('many'), options()))).toEqual({});
    const leaky = await failures(cloudConformance(await load('many-leaky'), options()));
    expect(Object.values(leaky).join('\n')).toMatch(/still exists after teardown/);
    const short = await failures(cloudConformance(await load('many-short'), options()));
    expect(Object.values(short).join('\n')).toMatch(/teardownMany: teardownMany answered 0 outcomes for 1 resources|teardownMany answered 1 outcomes for 2 resources/);
    process.env['NBT_CLOUD_BEHAVIOUR'] = 'good';
  }, 120_000);
});

describe('publisherConformance', () => {
  const publisher = (fail: (settings: { fail: boolean }) => boolean) =>
    definePlugin({
      kind: 'publisher',
      name: 'kit-publisher',
      schema: z.strictObject({ fail: z.boolean().default(false).describe('Fail on purpose.') }),
      async publish(_run, samples, settings) {
        if (fail(settings)) throw new Error('kit-publisher cannot reach its backend');
        return { count: samples.length };
      },
    });

  it('passes a publisher that publishes and fails cleanly with its failing settings', async () => {
    const seen: number[] = [];
    expect(
      await failures(
        publisherConformance(
          publisher((s) => s.fail),
          { failingBlock: { fail: true }, verify: ({ count }) => void seen.push(count) },
        ),
      ),
    ).toEqual({});
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeGreaterThan(0);
  });

  it('catches a publisher that always fails, and failing settings that do not fail', async () => {
    const broken = await failures(
      publisherConformance(
        publisher(() => true),
        {},
      ),
    );
    expect(broken["publishes a complete run's samples"]).toMatch(/kit-publisher cannot reach its backend/);
    const neverFails = await failures(
      publisherConformance(
        publisher(() => false),
        { failingBlock: { fail: true } },
      ),
    );
    expect(Object.values(neverFails).join('\n')).toMatch(/did not make it fail/);
  });
});
