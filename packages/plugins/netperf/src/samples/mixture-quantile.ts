/** What netperf reports of one stream's latency distribution. */
export interface StreamDistribution {
  /**
   * (value, cumulative fraction) points, e.g. (min, 0), (p50, 0.5), (p90, 0.9),
   * (p99, 0.99), (max, 1). Must include fractions 0 and 1.
   */
  readonly knots: readonly (readonly [value: number, fraction: number])[];
  /** Relative weight: the stream's number of transactions. */
  readonly weight: number;
}

type Knot = readonly [number, number];

// A stream's CDF, linear between its knots. Where several knots share a value
// (an atom, e.g. min == p50) it jumps there: `left` asks for the limit from below.
function cdf(knots: readonly Knot[], x: number, left: boolean): number {
  const first = knots[0] as Knot;
  const last = knots[knots.length - 1] as Knot;
  if (x < first[0]) return 0;
  if (x > last[0]) return 1;
  const equal = knots.filter(([value]) => value === x);
  if (equal.length > 0) return ((left ? equal[0] : equal[equal.length - 1]) as Knot)[1];
  const i = knots.findIndex(([value], index) => value < x && (knots[index + 1] as Knot)[0] > x);
  const [v0, f0] = knots[i] as Knot;
  const [v1, f1] = knots[i + 1] as Knot;
  return f0 + ((x - v0) / (v1 - v0)) * (f1 - f0);
}

// netperf's percentiles come from bucketed counts and can cross the min/max it
// measured exactly; clamp so the modelled CDF never decreases.
function monotone(knots: readonly Knot[]): Knot[] {
  const sorted = [...knots].sort((a, b) => a[1] - b[1]);
  let floor = -Infinity;
  return sorted.map(([value, fraction]) => {
    floor = Math.max(floor, value);
    return [floor, fraction] as const;
  });
}

/**
 * The q-quantile (0..1) of the transaction-weighted mixture of the streams'
 * distributions, each modelled as linear between its reported percentiles.
 * Exact when all streams have the same distribution; always between the
 * smallest and the largest per-stream q-quantile; an estimate otherwise,
 * because netperf does not report enough of each distribution to merge them
 * exactly. Undefined when no stream has a usable distribution.
 */
export function mixtureQuantile(streams: readonly StreamDistribution[], q: number): number | undefined {
  const usable = streams
    .map((stream) => ({ weight: stream.weight, knots: monotone(stream.knots) }))
    .filter((stream) => stream.weight > 0 && stream.knots[0]?.[1] === 0 && stream.knots[stream.knots.length - 1]?.[1] === 1);
  if (usable.length === 0) return undefined;
  const total = usable.reduce((sum, stream) => sum + stream.weight, 0);
  const mixed = (x: number, left: boolean) => usable.reduce((sum, stream) => sum + stream.weight * cdf(stream.knots, x, left), 0) / total;
  const points = [...new Set(usable.flatMap((stream) => stream.knots.map(([value]) => value)))].sort((a, b) => a - b);
  let previous: number | undefined;
  for (const x of points) {
    const below = mixed(x, true);
    if (previous !== undefined && q <= below) {
      // No stream has a knot strictly between two consecutive points: the mixture is linear there.
      const start = mixed(previous, false);
      return previous + ((q - start) / (below - start)) * (x - previous);
    }
    if (q <= mixed(x, false)) return x;
    previous = x;
  }
  return points[points.length - 1];
}
