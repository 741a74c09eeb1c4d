import { describe, expect, it } from 'vitest';
import { Barrier } from './barrier.js';

describe('Barrier', () => {
  it('releases every party together when the last arrives, not before', async () => {
    const barrier = new Barrier(3);
    const order: string[] = [];
    const parties = [0, 1].map((i) => barrier.arrive().then(() => order.push(`released ${i}`)));
    await Promise.resolve();
    expect(order).toEqual([]);
    expect(barrier.released).toBe(false);
    order.push('third arrives');
    await Promise.all([...parties, barrier.arrive().then(() => order.push('released 2'))]);
    expect(order).toEqual(['third arrives', 'released 0', 'released 1', 'released 2']);
    expect(barrier.released).toBe(true);
  });

  it('rejects the waiting and the late once broken, and cannot be broken after release', async () => {
    const broken = new Barrier(2);
    const waiting = broken.arrive();
    broken.break(new Error('flow 2 failed'));
    await expect(waiting).rejects.toThrow('flow 2 failed');
    await expect(broken.arrive()).rejects.toThrow('flow 2 failed');

    const done = new Barrier(1);
    await done.arrive();
    done.break(new Error('too late'));
    expect(done.released).toBe(true);
    await expect(done.arrive()).rejects.toThrow('more arrivals than parties');
  });
});
