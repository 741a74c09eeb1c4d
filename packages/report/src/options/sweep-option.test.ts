import type { SweepChart } from '@netbench/results';
import { describe, expect, it } from 'vitest';
import { figureOf } from '../figure.js';
import { renderSvg } from '../render-svg.js';

// oha's p50 against offered rate as the lab measured it (20261208-001443-lo1ip6): a noise bump at 2,000/s, the knee at 4,000/s.
const latency: SweepChart = {
  kind: 'sweep',
  id: 'sweep-http-latency-p50-http-by-rate',
  title: 'HTTP_Latency_p50 by rate (http oha)',
  subtitle: 'mean ± 95% confidence interval where repeated',
  notes: [],
  runIds: ['r'],
  metric: 'HTTP_Latency_p50',
  param: 'rate',
  x: { label: 'rate', unit: 'requests/s', scale: 'log' },
  y: { label: 'HTTP_Latency_p50', unit: 'ms', scale: 'linear' },
  better: 'lower',
  confidence: { level: 0.95, method: 'bootstrap-percentile' },
  series: [
    {
      name: 'http oha',
      runId: 'r',
      points: [
        [500, 7.55],
        [1000, 3.28],
        [2000, 44.6],
        [4000, 7.09],
        [8000, 623],
        [16000, 300],
      ].map(([x, mean]) => ({ x: x!, mean: mean!, n: 1 })),
      knee: { x: 4000, mean: 7.09, n: 1 },
    },
  ],
};

describe('sweep options', () => {
  it('marks the knee with its rate beside the pin, in the text colour', () => {
    const option = figureOf(latency).option as unknown as { series: { markPoint?: { label: { formatter: string; color: string }; data: { coord: number[] }[] } }[] };
    const mark = option.series[0]!.markPoint!;
    expect(mark.data[0]!.coord).toEqual([4000, 7.09]);
    expect(mark.label.formatter).toBe('knee: 4,000');
    expect(renderSvg(latency)).toContain('knee: 4,000');
    expect(option.series.slice(1).every((s) => s.markPoint === undefined)).toBe(true);
  });
});
