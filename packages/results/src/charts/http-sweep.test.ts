import { describe, expect, it } from 'vitest';
import { ResultsBuilder } from './__fixtures__/results.js';
import { sweepCharts } from './sweep-charts.js';

// The http tool plugin's constant-rate trials: latency against offered rate, with the knee marked.
describe('sweep charts of HTTP latency against offered rate', () => {
  it("put rate on x, mark each line's knee and name it in the notes", () => {
    const b = new ResultsBuilder();
    const p99: Record<number, number> = { 500: 1, 1000: 1.1, 2000: 1.6, 4000: 9, 8000: 120 };
    for (const rate of [500, 1000, 2000, 4000, 8000]) {
      b.trial('http', 'oha', { generator: 'oha', connections: 50, rate, duration: 10 })
        .add('HTTP_Latency_p99', p99[rate]!, 'ms')
        .add('HTTP_Request_Rate', Math.min(rate, 3000), 'requests/s');
    }
    const charts = sweepCharts([b.build()]);
    const latency = charts.find((c) => c.metric === 'HTTP_Latency_p99')!;
    expect(latency.param).toBe('rate');
    expect(latency.x.unit).toBe('requests/s');
    // The axis names the unit in the magnitude it draws (s for 120 ms): the subtitle does not say the samples' ms.
    expect(latency.subtitle).toBe('mean ± 95% confidence interval where repeated');
    expect(latency.series[0]!.knee?.x).toBe(2000);
    // Achieved is min(rate, 3000): 4000/s is the first it fell behind, so the knee is 2000/s.
    expect(latency.notes.join(' ')).toMatch(/Knee \(the highest offered rate the server kept up with, achieved ≥ 90 % of offered.*\): .*2000 requests\/s/);
    // Achieved rate against offered rate: a sweep too, without a knee (it is not a latency).
    const rate = charts.find((c) => c.metric === 'HTTP_Request_Rate')!;
    expect(rate.param).toBe('rate');
    expect(rate.series[0]!.knee).toBeUndefined();
  });

  it('sweep requests/s against connections when connections vary', () => {
    const b = new ResultsBuilder();
    for (const connections of [1, 10, 100]) {
      b.trial('http', 'wrk', { generator: 'wrk', connections, duration: 5 }).add('HTTP_Request_Rate', connections * 100, 'requests/s');
    }
    const [chart] = sweepCharts([b.build()]);
    expect(chart).toMatchObject({ metric: 'HTTP_Request_Rate', param: 'connections', better: 'higher' });
  });
  it("a wrk sweep of connections × size × keep-alive × scheme (16 lines) draws one chart per size, not none; wrk's per-thread stats are not charted", () => {
    const b = new ResultsBuilder();
    for (const size of [0, 1024, 102400]) {
      for (const keepalive of [true, false]) {
        for (const scheme of ['http', 'https']) {
          for (const connections of [1, 10, 100, 1000]) {
            const rate = ((keepalive ? 5000 : 1500) * (scheme === 'http' ? 1 : 0.6) * Math.min(connections, 100) ** 0.3) / (1 + size / 10240);
            b.trial('http', 'wrk', { generator: 'wrk', connections, size, keepalive, scheme, duration: 2 })
              .add('HTTP_Request_Rate', rate, 'requests/s')
              .add('wrk_Thread_Request_Rate', rate, 'requests/s');
          }
        }
      }
    }
    // 3 sizes × 2 × 2 = 12 lines would fit; a fourth size (16 lines) must split.
    for (const keepalive of [true, false]) {
      for (const scheme of ['http', 'https']) {
        for (const connections of [1, 10, 100, 1000])
          b.trial('http', 'wrk', { generator: 'wrk', connections, size: 1048576, keepalive, scheme, duration: 2 }).add('HTTP_Request_Rate', 100, 'requests/s');
      }
    }
    const charts = sweepCharts([b.build()]).filter((c) => c.metric === 'HTTP_Request_Rate');
    expect(charts.map((c) => c.title)).toEqual([0, 1024, 102400, 1048576].map((size) => `HTTP_Request_Rate by connections (http wrk) · size=${size}`));
    for (const chart of charts) {
      expect(chart.param).toBe('connections');
      expect(chart.series.map((s) => s.name).sort()).toEqual([
        'keepalive=false · scheme=http',
        'keepalive=false · scheme=https',
        'keepalive=true · scheme=http',
        'keepalive=true · scheme=https',
      ]);
      expect(chart.series.every((s) => s.points.length === 4)).toBe(true);
    }
    expect(new Set(charts.map((c) => c.id)).size).toBe(4);
    expect(sweepCharts([b.build()]).some((c) => c.metric === 'wrk_Thread_Request_Rate')).toBe(false);
  });
});
