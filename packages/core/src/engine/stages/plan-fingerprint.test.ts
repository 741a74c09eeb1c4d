import { describe, expect, it } from 'vitest';
import { labPlan } from '../__fixtures__/lab-plan.js';
import { planChanges, planFingerprint } from './plan-fingerprint.js';

const plan = (modes: ('ok' | 'fail' | 'sleep')[]) => labPlan({ root: '/nonexistent', runsDir: '/nonexistent', trials: modes.map((mode) => ({ mode })) });

describe('planFingerprint', () => {
  it('is the same for the same plan, and names each trial changed, added or gone and each host', () => {
    const first = planFingerprint(plan(['ok', 'ok', 'fail']));
    expect(planChanges(first, planFingerprint(plan(['ok', 'ok', 'fail'])))).toEqual([]);
    expect(planChanges(first, planFingerprint(plan(['ok', 'sleep', 'fail', 'ok'])))).toEqual(['trials changed: t0002', 'trials added: t0004']);
    expect(planChanges(first, planFingerprint(plan(['ok'])))).toEqual(['trials gone: t0002, t0003']);
    const moved = { ...plan(['ok', 'ok', 'fail']) };
    const other = { ...moved, fleet: [...moved.fleet.slice(0, 1), { ...moved.fleet[1]!, id: 'b2' }], trials: moved.trials.map((t) => ({ ...t, server: 'b2' })) };
    expect(planChanges(first, planFingerprint(other))).toEqual(['trials changed: t0001, t0002, t0003', 'hosts added: b2@lab', 'hosts gone: b@lab']);
  });

  it('leaves host configs out (they may hold secrets, which may change between invocations)', () => {
    const base = plan(['ok']);
    const rotated = { ...base, fleet: base.fleet.map((h) => ({ ...h, config: { ...h.config, passphrase: 'rotated' } })) };
    expect(planChanges(planFingerprint(base), planFingerprint(rotated))).toEqual([]);
  });

  it("names a host whose block in the spec was edited (a link rate, a zone); a secret's value behind its reference does not count", () => {
    const base = plan(['ok']);
    const withText = (hosts: string) => ({ ...base, spec: { ...base.spec, source: { file: 'spec.yaml', text: `name: x\nhosts:\n${hosts}benchmarks: []\n` } } });
    const before = planFingerprint(withText('  a: { cloud: lab }\n  b: { cloud: lab, link: { rate: 100mbit }, password: "${env:PW}" }\n'));
    // The same text: the same plan, whatever PW holds now (it is resolved into the fleet's config, not the text).
    const rotated = withText('  a: { cloud: lab }\n  b: { cloud: lab, link: { rate: 100mbit }, password: "${env:PW}" }\n');
    expect(planChanges(before, planFingerprint({ ...rotated, fleet: rotated.fleet.map((h) => ({ ...h, config: { ...h.config, password: 'new' } })) }))).toEqual([]);
    const edited = withText('  a: { cloud: lab }\n  b: { cloud: lab, link: { rate: 200mbit }, password: "${env:PW}" }\n');
    expect(planChanges(before, planFingerprint(edited))).toEqual(['host configs changed: b']);
    // A journal of an older version has no host hashes: nothing to compare.
    const { hosts: _, ...old } = before;
    expect(planChanges(old, planFingerprint(edited))).toEqual([]);
  });
});
