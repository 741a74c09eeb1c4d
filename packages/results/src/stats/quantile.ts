/** Ascending copy (a typed array sorts numerically, and fast). */
export function sortedCopy(values: ArrayLike<number>): Float64Array {
  return Float64Array.from(values).sort();
}

/**
 * Quantile of ascending `sorted` values, linear between order statistics
 * (Hyndman & Fan type 7, as R's and numpy's defaults). `q` in 0..1.
 */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const h = (n - 1) * Math.min(1, Math.max(0, q));
  const lo = Math.floor(h);
  const hi = Math.min(n - 1, lo + 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

export function median(values: readonly number[]): number {
  return quantileSorted(sortedCopy(values), 0.5);
}

/** Median absolute deviation from the median (unscaled). */
export function mad(values: readonly number[], center = median(values)): number {
  return median(values.map((v) => Math.abs(v - center)));
}

/**
 * `quantileSorted` of unsorted `values` without sorting them: quickselect
 * (Hoare) for the lower order statistic, then the smallest value above it.
 * Reorders `values` in place. O(n) on average.
 */
export function quantileSelect(values: Float64Array, q: number): number {
  const n = values.length;
  if (n === 0) return Number.NaN;
  const h = (n - 1) * Math.min(1, Math.max(0, q));
  const k = Math.floor(h);
  let left = 0;
  let right = n - 1;
  while (left < right) {
    const pivot = values[(left + right) >> 1]!;
    let i = left;
    let j = right;
    while (i <= j) {
      while (values[i]! < pivot) i += 1;
      while (values[j]! > pivot) j -= 1;
      if (i <= j) {
        const t = values[i]!;
        values[i] = values[j]!;
        values[j] = t;
        i += 1;
        j -= 1;
      }
    }
    if (k <= j) right = j;
    else if (k >= i) left = i;
    else break;
  }
  const low = values[k]!;
  if (h === k || k + 1 >= n) return low;
  let next = Number.POSITIVE_INFINITY;
  for (let i = k + 1; i < n; i += 1) if (values[i]! < next) next = values[i]!;
  return low + (h - k) * (next - low);
}
