import { describe, expect, it } from 'vitest';
import { TestResolver } from '../spec/__fixtures__/test-plugins.js';
import { loadSpec } from '../spec/load-spec.js';
import { createPlan } from './create-plan.js';

const SPEC = `name: parse-once
hosts:
  client: { cloud: local }
  server: { cloud: local }
benchmarks:
  - tool: netperf
    client: client
    server: server
    tests: [TCP_RR]
    duration: \${d}
matrix:
  axes: { d: [1, 2, 3], label: [a, b, c, d] }
`;

describe('a benchmark block is parsed by its plugin once', () => {
  it('validation parses each distinct block once, and planning parses none again', async () => {
    const resolver = new TestResolver();
    const loaded = await loadSpec({ text: SPEC }, resolver);
    // 3 distinct benchmark blocks (d = 1, 2, 3; the label axis does not change them) + 1 host block shape.
    const afterValidation = loaded.blocks.parses;
    expect(afterValidation).toBe(4);
    const plan = await createPlan(loaded.spec, resolver, loaded.blocks);
    expect(plan.trials).toHaveLength(12);
    expect(plan.trials.map((t) => t.params['duration'])).toEqual(expect.arrayContaining([1, 2, 3]));
    // No benchmark or host block again; only the default publisher the spec did not write (json) is parsed, here instead of at publish.
    expect(loaded.blocks.parses).toBe(afterValidation + 1);
    expect(plan.publishSettings).toEqual([{ file: 'results.json', pretty: false }]);
  });

  it('parses what it was not given (a spec that did not come from loadSpec is still checked)', async () => {
    const resolver = new TestResolver();
    const loaded = await loadSpec({ text: SPEC }, resolver);
    const plan = await createPlan(loaded.spec, resolver);
    expect(plan.trials).toHaveLength(12);
  });

  it('publisher settings: parsed once by validation, handed on by the plan with their defaults', async () => {
    const resolver = new TestResolver();
    const loaded = await loadSpec({ text: `${SPEC}publish:\n  - { type: json, pretty: true }\n  - { type: json, file: '\${notavariable}.json' }\n` }, resolver);
    const afterValidation = loaded.blocks.parses;
    const plan = await createPlan(loaded.spec, resolver, loaded.blocks);
    // Defaults applied (the fixture's json publisher: file results.json, pretty false); `${...}` is literal in settings.
    expect(plan.publishSettings).toEqual([
      { file: 'results.json', pretty: true },
      { file: '${notavariable}.json', pretty: false },
    ]);
    expect(loaded.blocks.parses).toBe(afterValidation);
  });
});
