import type { TimeSeriesChart, TimeSeriesSeries } from '@netbench/results';
import { displayLabel } from '../display-text.js';
import { escapeHtml } from '../html-escape.js';
import { seriesColor } from '../palette.js';
import type { RenderContext } from '../render-options.js';
import { type AxisUnit, axisUnit, formatNumber, formatQuantity, isRateUnit, maxAbs } from '../units.js';
import { type Figure, frame, heightOf, valueAxis, widthOf } from './base.js';
import { robustAxisMax } from './robust-axis.js';
import { GAP_SPACINGS, type SeriesGap, STALL_SECONDS, seriesGaps, stallLabels, trailingStall, typicalSpacing, withBreaks } from './series-gaps.js';
import { seriesStyles } from './series-style.js';

/** More points than this in a time series: no symbols or mean lines, points handed over flat, and a zoom slider when interactive. */
export const BIG_SERIES_POINTS = 5_000;

/**
 * `[x, y]` points as one flat Float64Array (x0, y0, x1, y1, …), which ECharts
 * reads as a typed-array source: it takes 100,000 points in ~0.08 s instead
 * of ~0.3 s (no array per point to clone, check and copy). The same points,
 * sampled and drawn the same way; a null y (a gap) is NaN, where the line breaks.
 */
export function flatPoints(points: readonly (readonly [number, number | null])[]): Float64Array {
  const flat = new Float64Array(points.length * 2);
  for (let i = 0; i < points.length; i++) {
    const [x, y] = points[i]!;
    flat[2 * i] = x;
    flat[2 * i + 1] = y ?? Number.NaN;
  }
  return flat;
}

/** A point above its axis's top, drawn as a marker on the top edge and named in the subtitle. */
interface Clipped {
  readonly x: number;
  readonly y: number;
}

const LIST_AT_MOST = 3;

/**
 * Lines with a point per interval and a dashed line at each series' mean;
 * rate axes start at zero. Where a series has no points for more than a few
 * of its intervals the line breaks (a gap, not a straight line across), and
 * gaps of a second or more are shaded and named in the subtitle as stalls.
 * Each value axis fits the body of its values (see robustAxisMax): the
 * outliers above it are clipped, marked on the top edge and named in the
 * subtitle. The interactive tooltip lists every series at the crosshair,
 * each in its own axis's unit; the time axis spans the trial (`span`), so a
 * trial's charts line up.
 */
export function timeSeriesOption(spec: TimeSeriesChart, ctx: RenderContext): Figure {
  const width = widthOf(ctx);
  let maxX = 0;
  let firstX = Infinity;
  let negative = false;
  let total = 0;
  const values: [number[], number[]] = [[], []];
  for (const s of spec.series) {
    total += s.points.length;
    firstX = Math.min(firstX, s.points[0]?.[0] ?? Infinity);
    const bucket = values[s.axis === 2 && spec.y2 ? 1 : 0];
    for (const [x, y] of s.points) {
      if (x > maxX) maxX = x;
      bucket.push(Math.abs(y));
      if (y < 0 && s.axis !== 2) negative = true;
    }
  }
  const big = total > BIG_SERIES_POINTS;
  // Stacked bands add up: their top edge is the sum, which a per-value percentile does not bound.
  const tops = values.map((v) => (spec.stack ? undefined : robustAxisMax(v)));
  const y = axisUnit(spec.y.unit, [tops[0] ?? maxAbs(values[0])]);
  // A second axis on the right (flent's "all scaled": throughput left, latency right).
  const y2 = spec.y2 ? axisUnit(spec.y2.unit, [tops[1] ?? maxAbs(values[1])]) : undefined;
  const unitOf = (s: TimeSeriesSeries) => (s.axis === 2 && y2 ? y2 : y);
  // An outlier reads in its own magnitude (2.4 s), not the axis's (2,400 ms).
  const rawUnitOf = (s: TimeSeriesSeries) => (s.axis === 2 && spec.y2 ? spec.y2.unit : spec.y.unit);
  const topOf = (s: TimeSeriesSeries) => tops[s.axis === 2 && spec.y2 ? 1 : 0];
  const styles = seriesStyles(spec);
  const colorOf = (i: number) => styles[i]!.color;
  const seconds = { symbol: spec.x.unit, factor: 1, format: formatNumber, formatWithUnit: (v: number) => `${formatNumber(v)} ${spec.x.unit}` };

  // Where the longest-lasting series of each axis ends: a series stopping well before it stalled for good.
  const axisOf = (s: TimeSeriesSeries) => (s.axis === 2 && spec.y2 ? 1 : 0);
  const axisEnd = [0, 1].map((a) => Math.max(0, ...spec.series.filter((s) => axisOf(s) === a).map((s) => s.points.at(-1)?.[0] ?? 0)));
  const drawn = spec.series.map((s) => {
    const gaps = spec.stack ? [] : seriesGaps(s.points);
    const top = topOf(s);
    const clipped: Clipped[] = top === undefined ? [] : s.points.filter((p) => p[1] > top).map(([x, v]) => ({ x, y: v }));
    const trailing = spec.stack ? undefined : trailingStall(s.points, axisEnd[axisOf(s)]!);
    const stalls: SeriesGap[] = [...gaps.filter((g) => g.to - g.from >= STALL_SECONDS), ...(trailing ? [trailing] : [])];
    return { s, gaps, stalls, clipped, top };
  });
  // Probes that stalled together get one label over their shared span, not one on top of the other.
  const labels = stallLabels(
    drawn.map((d) => d.stalls),
    spec.series.map((s) => s.name),
  );
  const notes: string[] = [];
  const stalls = drawn.flatMap((d) =>
    d.stalls.map(
      (g) => `${d.s.name} ${formatNumber(g.from)}–${formatNumber(g.to)} s${g.to === axisEnd[axisOf(d.s)] && g.from === d.s.points.at(-1)?.[0] ? ' (never resumed)' : ''}`,
    ),
  );
  if (stalls.length > 0) notes.push(`no samples (stalled): ${listed(stalls)}`);
  const clippedText = drawn
    .filter((d) => d.clipped.length > 0)
    .map((d) => {
      const worst = d.clipped.reduce((a, b) => (b.y > a.y ? b : a));
      return `${d.s.name} ${formatQuantity(worst.y, rawUnitOf(d.s))} at ${formatNumber(worst.x)} s${d.clipped.length > 1 ? ` (+${d.clipped.length - 1} more)` : ''}`;
    });
  if (clippedText.length > 0) notes.push(`clipped above the axis: ${listed(clippedText)}`);

  const { option, minHeight } = frame(
    spec,
    ctx,
    spec.series.map((s) => s.name),
    width,
    { ...(ctx.interactive ? { bottom: 28 } : {}), ...(spec.y2 ? { right: 16 } : {}), notes },
  );
  const leftAxis = valueAxis(ctx, displayLabel(spec.y.label, spec), y, 'linear', {
    ...(isRateUnit(spec.y.unit) || !negative ? { min: 0 } : {}),
    ...(tops[0] !== undefined ? { max: tops[0] } : {}),
  });
  return {
    width,
    height: Math.max(heightOf(ctx), minHeight),
    option: {
      ...option,
      ...(ctx.interactive
        ? {
            tooltip: {
              trigger: 'axis',
              confine: true,
              axisPointer: { type: 'line', snap: false },
              formatter: ((items: readonly TooltipItem[]) =>
                timeTooltip(
                  items,
                  spec.series,
                  unitOf,
                  seconds.formatWithUnit,
                  styles.map((st) => st.color),
                )) as never,
            },
          }
        : {}),
      // The last interval ends a hair after the nominal duration (3.0008 s): end the axis there, label it 3.
      xAxis: valueAxis(ctx, spec.x.label, seconds, 'linear', {
        min: spec.span?.[0] ?? 0,
        max: Math.max(maxX, spec.span?.[1] ?? 0),
        minInterval: Number.isFinite(firstX) && firstX >= 1 ? 1 : 0,
      }),
      yAxis:
        spec.y2 && y2
          ? [
              leftAxis,
              valueAxis(ctx, spec.y2.label, y2, spec.y2.scale, { min: 0, position: 'right', splitLine: { show: false }, ...(tops[1] !== undefined ? { max: tops[1] } : {}) }),
            ]
          : leftAxis,
      ...(ctx.interactive ? { dataZoom: big ? [{ type: 'inside' }, { type: 'slider', height: 18, bottom: 4 }] : [{ type: 'inside' }] } : {}),
      series: drawn.map(({ s, gaps, stalls: mine, clipped, top }, i) => {
        const mineLabelled = labels.filter((l) => l.series === i);
        const points = withBreaks(s.points, gaps);
        return {
          type: 'line',
          name: s.name,
          color: colorOf(i),
          ...(s.axis === 2 && spec.y2 ? { yAxisIndex: 1 } : {}),
          // A typed array names its two dimensions (the ones ECharts gives per-point arrays by default).
          ...(big ? { data: flatPoints(points) as unknown as number[][], dimensions: ['x', 'y'] } : { data: points as unknown as number[][] }),
          connectNulls: false,
          showSymbol: !big && s.points.length < 60,
          symbolSize: 6,
          lineStyle: { width: 2, type: styles[i]!.dash },
          // Downsampling keeps 100,000-point series interactive; the data table and export keep every point.
          sampling: 'lttb',
          large: big,
          progressive: 0,
          // Flows of one trial are stacked areas: the top edge is their sum, so no per-series mean line.
          ...(spec.stack
            ? { stack: spec.stack, areaStyle: { opacity: 0.5 } }
            : big
              ? {}
              : {
                  markLine: { silent: true, symbol: 'none', label: { show: false }, lineStyle: { type: 'dashed', color: colorOf(i), width: 1 }, data: [{ yAxis: s.mean }] },
                }),
          ...(mine.length > 0
            ? {
                markArea: {
                  silent: true,
                  itemStyle: { color: colorOf(i), opacity: 0.12 },
                  label: { position: 'insideTop', fontSize: 10, color: ctx.theme.muted, formatter: '{b}' },
                  data: mineLabelled.map(({ gap, label }) => [{ xAxis: gap.from, name: label ?? '', label: { show: label !== undefined } }, { xAxis: gap.to }]),
                },
              }
            : {}),
          ...(clipped.length > 0 && top !== undefined
            ? {
                markPoint: {
                  silent: true,
                  symbol: 'triangle',
                  symbolSize: 10,
                  itemStyle: { color: colorOf(i) },
                  label: { fontSize: 10, color: ctx.theme.text, position: 'bottom' as const },
                  data: clipped.map((p) => ({ name: 'clipped', coord: [p.x, top], value: p.y, label: { formatter: formatQuantity(p.y, rawUnitOf(s)) } })),
                },
              }
            : {}),
        };
      }),
    },
  };
}

function listed(items: readonly string[]): string {
  return items.length > LIST_AT_MOST ? `${items.slice(0, LIST_AT_MOST).join(', ')} and ${items.length - LIST_AT_MOST} more` : items.join(', ');
}

interface TooltipItem {
  readonly axisValue?: number;
  readonly value?: ArrayLike<number | null>;
}

/** The point of ascending `points` nearest to x (undefined when there are none). */
function nearest(points: readonly (readonly [number, number])[], x: number): readonly [number, number] | undefined {
  let lo = 0;
  let hi = points.length - 1;
  if (hi < 0) return undefined;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (points[mid]![0] < x) lo = mid;
    else hi = mid;
  }
  return Math.abs(points[lo]![0] - x) <= Math.abs(points[hi]![0] - x) ? points[lo] : points[hi];
}

/**
 * Every series at the crosshair: the time, then each series' nearest value
 * in its own axis's unit (RTTs in ms, not in Mbit/s). ECharts' axis tooltip
 * lists only the series sharing the nearest x, and probes and throughput
 * steps never share one: so each series is looked up here, and left out
 * where the crosshair is in one of its gaps or outside it.
 */
export function timeTooltip(
  items: readonly TooltipItem[],
  series: readonly TimeSeriesSeries[],
  unitOf: (s: TimeSeriesSeries) => AxisUnit,
  formatTime: (v: number) => string,
  colors: readonly string[] = [],
): string {
  const at = Number(items[0]?.axisValue ?? items[0]?.value?.[0]);
  const lines = series.flatMap((s, i) => {
    const point = nearest(s.points, at);
    const reach = (GAP_SPACINGS / 2) * typicalSpacing(s.points);
    if (!point || Math.abs(point[0] - at) > reach + 1e-9) return [];
    const marker = `<span style="display:inline-block;margin-right:5px;border-radius:5px;width:10px;height:10px;background-color:${colors[i] ?? seriesColor(i)}"></span>`;
    return [`${marker}${escapeHtml(s.name)}: ${unitOf(s).formatWithUnit(point[1])}`];
  });
  return [escapeHtml(formatTime(at)), ...lines].join('<br/>');
}
