/** A break wider than this many of a series' typical spacing leaves a gap in its line (a probe that stalled, a tool that went quiet). */
export const GAP_SPACINGS = 3;
/** Gaps at least this long (in x units, seconds) are flagged as stalls, beyond a few lost probes. */
export const STALL_SECONDS = 1;

export interface SeriesGap {
  /** The last point before the gap and the first after it. */
  readonly from: number;
  readonly to: number;
}

/** The median spacing of ascending x values (0 for fewer than two points). */
export function typicalSpacing(points: readonly (readonly [number, number])[]): number {
  if (points.length < 2) return 0;
  const spacings = new Float64Array(points.length - 1);
  for (let i = 1; i < points.length; i++) spacings[i - 1] = points[i]![0] - points[i - 1]![0];
  spacings.sort();
  return spacings[Math.floor(spacings.length / 2)]!;
}

/**
 * Where a series has no points for more than GAP_SPACINGS of its typical
 * spacing: drawn as a straight line, such a gap claims values nobody
 * measured (a probe stalled for 24 s looks like a ramp from 9 ms to 2.4 s).
 */
export function seriesGaps(points: readonly (readonly [number, number])[]): SeriesGap[] {
  const spacing = typicalSpacing(points);
  if (spacing <= 0) return [];
  const gaps: SeriesGap[] = [];
  for (let i = 1; i < points.length; i++) {
    const from = points[i - 1]![0];
    const to = points[i]![0];
    if (to - from > GAP_SPACINGS * spacing + 1e-9) gaps.push({ from, to });
  }
  return gaps;
}

/** The points with a `[x, null]` in the middle of each gap, where ECharts breaks the line. */
export function withBreaks(points: readonly (readonly [number, number])[], gaps: readonly SeriesGap[]): readonly (readonly [number, number | null])[] {
  if (gaps.length === 0) return points;
  const out: (readonly [number, number | null])[] = [];
  let next = 0;
  for (const point of points) {
    const gap = gaps[next];
    if (gap && point[0] === gap.to) {
      out.push([(gap.from + gap.to) / 2, null]);
      next += 1;
    }
    out.push(point);
  }
  return out;
}

/**
 * A series that stops well before the others on its axis: a probe that
 * stalled and never answered again (netperf UDP_RR has no timeout), which
 * no gap between two points shows. `end` is the last point of the series on
 * the same axis that lasts longest; series that end together (the bulk
 * flows at the end of the load) are not stalled.
 */
export function trailingStall(points: readonly (readonly [number, number])[], end: number): SeriesGap | undefined {
  const last = points.at(-1)?.[0];
  if (last === undefined) return undefined;
  const threshold = Math.max(GAP_SPACINGS * typicalSpacing(points), STALL_SECONDS);
  return end - last > threshold ? { from: last, to: end } : undefined;
}

/** One stall of one series, and the label its shaded band gets: one label for stalls that overlap, naming how many. */
export interface StallLabel {
  readonly series: number;
  readonly gap: SeriesGap;
  /** Absent where an earlier series' band over the same span carries the label. */
  readonly label?: string;
}

export function stallLabels(stalls: readonly (readonly SeriesGap[])[], names: readonly string[]): StallLabel[] {
  const all = stalls.flatMap((gaps, series) => gaps.map((gap) => ({ series, gap })));
  const overlaps = (a: SeriesGap, b: SeriesGap) => a.from < b.to && b.from < a.to;
  return all.map(({ series, gap }) => {
    const together = all.filter((o) => overlaps(o.gap, gap));
    const first = together.find((o) => overlaps(o.gap, gap))!;
    if (first.series !== series || first.gap !== gap) return { series, gap };
    const count = new Set(together.map((o) => o.series)).size;
    return { series, gap, label: count === 1 ? `${names[series]} stalled` : `${count} series stalled` };
  });
}
