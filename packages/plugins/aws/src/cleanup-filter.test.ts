import { describe, expect, it } from 'vitest';
import { runMatches } from './cleanup.js';
import { resourceName, runIdTime } from './naming.js';

describe('which leftovers cleanup takes', () => {
  const now = Date.UTC(2026, 10, 22, 12, 0, 0);
  it('ages runs by the time in their id, spares live runs, and can target one run', () => {
    expect(runIdTime('20261122-080000-abc123')?.toISOString()).toBe('2026-11-22T08:00:00.000Z');
    expect(runMatches({ olderThanMs: 4 * 3_600_000 }, '20261122-075959-abc123', now)).toBe(true);
    expect(runMatches({ olderThanMs: 4 * 3_600_000 }, '20261122-080001-abc123', now)).toBe(false);
    expect(runMatches({ olderThanMs: 1 }, 'not-a-run-id', now)).toBe(false);
    expect(runMatches({ excludeRunIds: ['20261122-075959-abc123'] }, '20261122-075959-abc123', now)).toBe(false);
    expect(runMatches({ runId: '20261122-075959-abc123' }, '20261122-075959-zzz999', now)).toBe(false);
    expect(runMatches({}, '20261122-075959-zzz999', now)).toBe(true);
  });

  it('names resources after the run, within EC2 name rules', () => {
    expect(resourceName('20261122-080000-abc123', 'vm1@zone=us-west1-a,extra zone')).toBe('nb-20261122-080000-abc123-vm1@zone=us-west1-a-extra-zone');
    expect(resourceName('r', 'x'.repeat(400))).toHaveLength(255);
  });
});
