import { twoSidedNormalP } from './normal.js';

export interface MannWhitneyResult {
  /** U of the candidate (second) sample: how often a candidate value beats a baseline value (ties count ½). */
  readonly u: number;
  /** Two-sided p-value. */
  readonly p: number;
  /**
   * `exact`: the permutation distribution of the rank sum, conditional on
   * the ties present (small samples). `normal`: normal approximation with
   * tie-corrected variance and continuity correction.
   */
  readonly method: 'exact' | 'normal';
  /** The smallest two-sided p these sample sizes (and ties) can produce: when above alpha, the test cannot decide. */
  readonly minP: number;
  readonly n1: number;
  readonly n2: number;
}

/** Largest n1 + n2 for which the exact distribution is computed (DP over doubled rank sums, O(N·n1·N²)). */
export const EXACT_LIMIT = 60;

/**
 * Mann–Whitney U (Wilcoxon rank-sum) test, two-sided, of `a` (baseline)
 * against `b` (candidate). Ties get mid-ranks. Exact for n1 + n2 ≤ 60 (the
 * permutation distribution given the observed ties), normal approximation
 * with tie correction above.
 */
export function mannWhitneyU(a: readonly number[], b: readonly number[], options: { readonly method?: 'auto' | 'exact' | 'normal' } = {}): MannWhitneyResult {
  const n1 = a.length;
  const n2 = b.length;
  if (n1 === 0 || n2 === 0) throw new RangeError('Mann–Whitney needs values on both sides');
  const pooled = [...a.map((value) => ({ value, group: 0 })), ...b.map((value) => ({ value, group: 1 }))].sort((x, y) => x.value - y.value);
  const n = pooled.length;
  // Doubled mid-ranks are integers, which the exact distribution needs.
  const ranks2 = new Array<number>(n);
  const tieSizes: number[] = [];
  for (let i = 0; i < n; ) {
    let j = i;
    while (j + 1 < n && pooled[j + 1]!.value === pooled[i]!.value) j += 1;
    const doubled = i + j + 2; // 2 × mean of ranks i+1 … j+1
    for (let k = i; k <= j; k += 1) ranks2[k] = doubled;
    tieSizes.push(j - i + 1);
    i = j + 1;
  }
  let w2 = 0; // doubled rank sum of the candidate
  pooled.forEach((item, i) => {
    if (item.group === 1) w2 += ranks2[i]!;
  });
  const u = w2 / 2 - (n2 * (n2 + 1)) / 2;
  const method = options.method ?? 'auto';
  if (method === 'exact' || (method === 'auto' && n <= EXACT_LIMIT)) return { ...exact(ranks2, n2, w2), u, method: 'exact', n1, n2 };

  const mean = (n1 * n2) / 2;
  const tieTerm = tieSizes.reduce((sum, t) => sum + (t ** 3 - t), 0) / (n * (n - 1));
  const variance = ((n1 * n2) / 12) * (n + 1 - tieTerm);
  if (variance <= 0) return { u, p: 1, minP: 1, method: 'normal', n1, n2 };
  const z = Math.max(0, Math.abs(u - mean) - 0.5) / Math.sqrt(variance);
  const zMax = Math.max(0, mean - 0.5) / Math.sqrt(variance);
  return { u, p: twoSidedNormalP(z), minP: twoSidedNormalP(zMax), method: 'normal', n1, n2 };
}

/** Null distributions by (k, ranks): without ties every comparison of the same sizes shares one. */
const DISTRIBUTIONS = new Map<string, Float64Array>();
const CACHED = 64;

/** Distribution of the doubled rank sum of k items drawn from `ranks2`; two-sided p of `observed`. */
function exact(ranks2: readonly number[], k: number, observed: number): { p: number; minP: number } {
  const total = ranks2.reduce((s, r) => s + r, 0);
  const key = `${k}|${ranks2.join(',')}`;
  let dist = DISTRIBUTIONS.get(key);
  if (!dist) {
    dist = distribution(ranks2, k);
    if (DISTRIBUTIONS.size >= CACHED) DISTRIBUTIONS.delete(DISTRIBUTIONS.keys().next().value!);
    DISTRIBUTIONS.set(key, dist);
  }
  const maxSum = dist.length - 1;
  let all = 0;
  for (let s = 0; s <= maxSum; s += 1) all += dist[s]!;
  const center = (k * total) / ranks2.length;
  const distance = Math.abs(observed - center);
  let tail = 0;
  let lowest = Number.POSITIVE_INFINITY;
  let highest = Number.NEGATIVE_INFINITY;
  for (let s = 0; s <= maxSum; s += 1) {
    if (dist[s] === 0) continue;
    lowest = Math.min(lowest, s);
    highest = Math.max(highest, s);
    // Tolerance: sums are integers, the centre may be fractional.
    if (Math.abs(s - center) >= distance - 1e-9) tail += dist[s]!;
  }
  const extreme = Math.max(Math.abs(lowest - center), Math.abs(highest - center));
  let minTail = 0;
  for (let s = 0; s <= maxSum; s += 1) if (dist[s] !== 0 && Math.abs(s - center) >= extreme - 1e-9) minTail += dist[s]!;
  return { p: Math.min(1, tail / all), minP: Math.min(1, minTail / all) };
}

/** ways[j][s]: subsets of size j with doubled rank sum s (doubles: counts exceed 2^53 but only ratios matter). */
function distribution(ranks2: readonly number[], k: number): Float64Array {
  const maxSum = ranks2
    .slice()
    .sort((x, y) => y - x)
    .slice(0, k)
    .reduce((s, r) => s + r, 0);
  const ways = Array.from({ length: k + 1 }, () => new Float64Array(maxSum + 1));
  ways[0]![0] = 1;
  let reach = 0;
  for (const r of ranks2) {
    reach = Math.min(maxSum, reach + r);
    for (let j = k; j >= 1; j -= 1) {
      const into = ways[j]!;
      const from = ways[j - 1]!;
      for (let s = reach; s >= r; s -= 1) into[s]! += from[s - r]!;
    }
  }
  return ways[k]!;
}
