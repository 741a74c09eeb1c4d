import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { allOrFirstError } from './all-or-first-error.js';

describe('allOrFirstError', () => {
  it('returns the values in the order of the promises, not the order they settle', async () => {
    const values = await allOrFirstError([sleep(30).then(() => 'slow'), Promise.resolve('now'), sleep(5).then(() => 'soon')]);
    expect(values).toEqual(['slow', 'now', 'soon']);
  });

  it('waits for every promise to settle before it throws', async () => {
    const settled: string[] = [];
    const work = [
      Promise.reject(new Error('create subnet: denied')),
      sleep(40).then(() => {
        settled.push('instance');
      }),
      sleep(20).then(() => {
        settled.push('firewall');
        throw new Error('create firewall: exists');
      }),
    ];
    await expect(allOrFirstError(work)).rejects.toThrow('create subnet: denied');
    // Had it thrown on the first rejection, the slow instance would still be in flight.
    expect(settled).toEqual(['firewall', 'instance']);
  });

  it('throws the first failure in promise order, itself, even when a later one failed sooner', async () => {
    const first = new Error('quota exceeded in us-east-1');
    const later = new Error('capacity in us-west-2');
    const thrown = await allOrFirstError([
      Promise.resolve(1),
      sleep(25).then(() => {
        throw first;
      }),
      Promise.reject(later),
    ]).catch((e: unknown) => e);
    expect(thrown).toBe(first);
    expect(thrown).not.toBeInstanceOf(AggregateError);
  });

  it('throws a non-Error rejection unchanged', async () => {
    await expect(allOrFirstError([Promise.reject('plain reason')])).rejects.toBe('plain reason');
  });

  it('resolves to an empty list for no promises', async () => {
    expect(await allOrFirstError([])).toEqual([]);
  });
});
