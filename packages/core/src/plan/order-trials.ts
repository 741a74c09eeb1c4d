import type { RunOptions } from '../spec/types.js';
import { randomSeed, seededRandom, shuffled } from './random.js';

export interface Repeated<T> {
  readonly item: T;
  /** 1-based. */
  readonly repetition: number;
}

/**
 * Repeat the planned trials `options.repetitions` times and put them in run
 * order. `plan`: repetition 1 in plan order, then repetition 2, … — a
 * configuration's repetitions are spread over the run rather than back to
 * back, so slow drift does not masquerade as a difference. `random`: every
 * trial of every repetition shuffled with a seeded generator; the seed used
 * (given or drawn) is returned so the order can be reproduced.
 */
export function repeatAndOrder<T>(items: readonly T[], options: Pick<RunOptions, 'repetitions' | 'order' | 'seed'>): { ordered: Repeated<T>[]; seed?: number } {
  const repetitions = options.repetitions ?? 1;
  const ordered: Repeated<T>[] = [];
  for (let repetition = 1; repetition <= repetitions; repetition += 1) {
    for (const item of items) ordered.push({ item, repetition });
  }
  if (options.order !== 'random') return { ordered };
  const seed = options.seed ?? randomSeed();
  return { ordered: shuffled(ordered, seededRandom(seed)), seed };
}
