import type { Direction } from './direction.js';

export type Verdict = 'better' | 'worse' | 'higher' | 'lower' | 'no significant difference' | 'too few repetitions' | 'no repetitions';

/** A decided row's verdict: better/worse where the direction is known, else higher/lower. */
export function verdict(significant: boolean, delta: number, direction: Direction | undefined): Verdict {
  if (!significant || delta === 0) return 'no significant difference';
  if (!direction) return delta > 0 ? 'higher' : 'lower';
  return delta < 0 === (direction === 'lower') ? 'better' : 'worse';
}
