import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newRunId, parseRunIdTime, runTag } from './run-id.js';
import { defaultRunsDir } from './runs-dir.js';

describe('run ids', () => {
  it('encode the UTC start time and sort by it', () => {
    const id = newRunId(new Date('2026-11-22T11:02:56.789Z'));
    expect(id).toMatch(/^20261122-110256-[0-9a-z]{6}$/);
    expect(parseRunIdTime(id)).toEqual(new Date('2026-11-22T11:02:56.000Z'));
    const ids = ['2027-01-01T00:00:00Z', '2026-12-31T23:59:59Z', '2026-02-03T04:05:06Z'].map((t) => newRunId(new Date(t)));
    expect([...ids].sort()).toEqual([ids[2], ids[1], ids[0]]);
  });

  it('differ within one second', () => {
    const now = new Date();
    const ids = new Set(Array.from({ length: 200 }, () => newRunId(now)));
    expect(ids.size).toBe(200);
  });

  it('draw every tag character equally often (36 symbols, no modulo bias)', () => {
    const counts = new Map<string, number>();
    const now = new Date();
    for (let i = 0; i < 20_000; i += 1) for (const c of runTag(newRunId(now))) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(36);
    // Chi-square with 35 degrees of freedom over 120,000 characters: a fair draw scores ~35 (100 is beyond
    // p = 1e-9), while `byte % 36` without skipping, which favours 4 symbols by 8/256 against 7/256, scores ~270.
    const expected = (20_000 * 6) / 36;
    const chi = [...counts.values()].reduce((sum, n) => sum + (n - expected) ** 2 / expected, 0);
    expect(chi).toBeLessThan(100);
  });

  it('reject what is not a run id', () => {
    expect(parseRunIdTime('20261322-110256-k3f9a2')).toBeUndefined();
    expect(parseRunIdTime('20261122-110256-K3F9A2')).toBeUndefined();
    expect(parseRunIdTime('my-run')).toBeUndefined();
  });

  it('have a six-character tag for short resource names', () => {
    expect(runTag('20261122-110256-k3f9a2')).toBe('k3f9a2');
    expect(runTag('My_Run-77')).toBe('yrun77');
    expect(runTag('x')).toBe('00000x');
  });

  it('live in $NETBENCH_HOME/runs, else ~/.netbench/runs', () => {
    const saved = process.env['NETBENCH_HOME'];
    try {
      process.env['NETBENCH_HOME'] = '/srv/nb';
      expect(defaultRunsDir()).toBe('/srv/nb/runs');
      delete process.env['NETBENCH_HOME'];
      expect(defaultRunsDir()).toBe(join(homedir(), '.netbench', 'runs'));
    } finally {
      if (saved === undefined) delete process.env['NETBENCH_HOME'];
      else process.env['NETBENCH_HOME'] = saved;
    }
  });
});
