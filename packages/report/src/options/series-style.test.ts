import type { CdfChart } from '@netbench/results';
import { describe, expect, it } from 'vitest';
import { SERIES_COLORS } from '../palette.js';
import { renderContext } from '../render-options.js';
import { cdfOption } from './cdf-option.js';
import { seriesStyles } from './series-style.js';

const line = (name: string, runId: string) => ({
  name,
  runId,
  count: 10,
  points: [
    [1, 0],
    [2, 100],
  ] as [number, number][],
  percentiles: { p50: 1.5, p90: 2, p99: 2, p999: 2, max: 2 },
});

/** Two configurations (forward, reverse) of three runs on one CDF, as `chartsFor([a, b, c])` draws them. */
const overlay: CdfChart = {
  kind: 'cdf',
  id: 'cdf',
  title: 'Latency CDF (ping)',
  notes: [],
  runIds: ['a', 'b', 'c'],
  metric: 'rtt',
  x: { label: 'latency', unit: 'ms', scale: 'linear' },
  y: { label: '≤', unit: '%', scale: 'linear' },
  series: ['a', 'b', 'c'].flatMap((r) => [line(`forward · ${r}`, r), line(`reverse · ${r}`, r)]),
};

describe('series styles', () => {
  it('colour by run when a chart overlays runs; the series of one run differ by dash', () => {
    const styles = seriesStyles(overlay);
    expect(styles.map((s) => s.color)).toEqual([0, 0, 1, 1, 2, 2].map((i) => SERIES_COLORS[i]));
    expect(styles.map((s) => s.dash)).toEqual(['solid', 'dashed', 'solid', 'dashed', 'solid', 'dashed']);
    // The drawn option carries them.
    const drawn = (cdfOption(overlay, renderContext({})).option as { series: { color: string; lineStyle: { type: string } }[] }).series;
    expect(drawn.map((s) => [s.color, s.lineStyle.type])).toEqual(styles.map((s) => [s.color, s.dash]));
  });

  it('colour by series in a chart of one run', () => {
    const one = { ...overlay, runIds: ['a'], series: overlay.series.map((s) => ({ ...s, runId: 'a' })) };
    expect(seriesStyles(one).map((s) => s.color)).toEqual(SERIES_COLORS.slice(0, 6));
    expect(new Set(seriesStyles(one).map((s) => s.dash))).toEqual(new Set(['solid']));
  });
});
