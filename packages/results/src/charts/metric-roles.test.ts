import { describe, expect, it } from 'vitest';
import { ResultsBuilder } from './__fixtures__/results.js';
import { barCharts } from './bar-charts.js';
import { headlineMetric } from './metric-roles.js';

describe('headline metrics a plugin declares', () => {
  it('are headline metrics only for runs that recorded the declaration, and the declaration decides the direction', () => {
    expect(headlineMetric('rtt_p50')).toBeUndefined();
    expect(headlineMetric('rtt_p50', { rtt_p50: { role: 'latency', better: 'lower', primary: true } })).toEqual({ role: 'latency', better: 'lower', primary: true });
    // A declaration wins over the built-in names (a tool whose "Throughput" is lower-better would be odd, but it is the tool's word).
    expect(headlineMetric('Throughput', { Throughput: { role: 'rate', better: 'lower' } })).toEqual({ role: 'rate', better: 'lower', primary: false });
  });

  it('are compared as bars when the runs declare them, and not otherwise', () => {
    const build = (runId: string, declared: boolean) => {
      const b = new ResultsBuilder(runId);
      for (const size of [16, 64, 256]) b.trial('sockperf', 'ping-pong', { message_size: size }).add('rtt_p50', 10 + size / 16, 'us');
      const results = b.build();
      return declared ? { ...results, run: { ...results.run, metrics: { rtt_p50: { role: 'latency' as const, better: 'lower' as const, primary: true } } } } : results;
    };
    expect(barCharts([build('20261122-110256-aaaaaa', false), build('20261122-120256-bbbbbb', false)])).toEqual([]);
    const [chart] = barCharts([build('20261122-110256-aaaaaa', true), build('20261122-120256-bbbbbb', true)]);
    expect(chart).toMatchObject({ metric: 'rtt_p50', better: 'lower' });
  });
});
