// node:crypto is loaded on first use: importing it cost every run ~9 ms of start-up, and a local run needs none of it.
const crypto = () => process.getBuiltinModule('node:crypto');

/** A uniform generator on [0, 1). */
export type Random = () => number;

/**
 * A seeded generator (mulberry32, its state mixed from the seed by one
 * splitmix32 step), so a bootstrap or a randomised trial order is
 * reproducible from its seed alone. Stays in 32-bit integer arithmetic,
 * which keeps it several times faster than generators that spill into
 * doubles. Not for secrets.
 */
export function seededRandom(seed: number): Random {
  let z = (seed + 0x9e3779b9) | 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  let state = z ^ (z >>> 16);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A fresh seed for when the user gave none (recorded so the run can be repeated). */
export function randomSeed(): number {
  return crypto().randomInt(1, 2 ** 31 - 1);
}

/** A shuffled copy (Fisher–Yates). */
export function shuffled<T>(items: readonly T[], random: Random): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}
