import { describe, expect, it } from 'vitest';
import { aggregateFlows, commonLabels } from './aggregate-flows.js';

const combine = (metric: string) => (metric.endsWith('_Rate') ? 'sum' : metric.endsWith('_mean') ? 'mean' : undefined);

describe('aggregateFlows', () => {
  const flows = [
    {
      label: 'c->s1',
      startedAt: 1000.5,
      samples: [
        { metric: 'UDP_RR_Transaction_Rate', value: 100, unit: 'tps', labels: { client_host: 'c', server_host: 's1', flow: 'c->s1' } },
        { metric: 'UDP_RR_Latency_mean', value: 10, unit: 'us' },
      ],
    },
    {
      label: 'c->s2',
      startedAt: 1000.0,
      samples: [
        { metric: 'UDP_RR_Transaction_Rate', value: 300, unit: 'tps', labels: { client_host: 'c', server_host: 's2', flow: 'c->s2' } },
        { metric: 'UDP_RR_Latency_mean', value: 30, unit: 'us' },
      ],
    },
    {
      label: 'c->s3',
      startedAt: 1002.25,
      samples: [
        { metric: 'UDP_RR_Transaction_Rate', value: 200, unit: 'tps', labels: { client_host: 'c', server_host: 's3', flow: 'c->s3' } },
        { metric: 'UDP_RR_Latency_mean', value: 20, unit: 'us' },
      ],
    },
  ];

  it('sums rates and averages latencies with the spread across flows, and reports the start skew', () => {
    const out = aggregateFlows(flows, combine, 5);
    const rate = out.find((s) => s.metric === 'UDP_RR_Transaction_Rate')!;
    expect(rate.value).toBe(600);
    expect(rate.labels).toMatchObject({ flow: 'aggregate', flow_count: 3, aggregation: 'sum_of_flows', flow_min: 100, flow_median: 200, flow_max: 300, client_host: 'c' });
    // An aggregate claims no server: the flows disagree on it.
    expect(rate.labels).not.toHaveProperty('server_host');
    expect(out.find((s) => s.metric === 'UDP_RR_Latency_mean')).toMatchObject({ value: 20, labels: { aggregation: 'mean_of_flows' } });
    expect(out.find((s) => s.metric === 'flow_start_skew')).toMatchObject({ value: 2.25, unit: 'ms', timestamp: 5 });
  });

  it('aggregates a metric over the flows that report it; leaves it out when one reports it twice or in another unit', () => {
    const [a, b, c] = flows;
    const out = aggregateFlows(
      [a!, { ...b!, startedAt: undefined, samples: [b!.samples[0]!, b!.samples[0]!] }, { ...c!, samples: [{ ...c!.samples[1]!, unit: 'ms' }] }],
      combine,
      5,
    );
    expect(out).toEqual([]);
    const subset = aggregateFlows([a!, { ...b!, samples: [b!.samples[1]!] }, c!], combine, 5);
    expect(subset.find((s) => s.metric === 'UDP_RR_Transaction_Rate')).toMatchObject({ value: 300, labels: { flow_count: 2 } });
    expect(subset.find((s) => s.metric === 'UDP_RR_Latency_mean')).toMatchObject({ value: 20, labels: { flow_count: 3 } });
  });

  it('keeps only the labels every set shares', () => {
    expect(commonLabels([{ a: 1, b: 'x' }, { a: 1, b: 'y' }, { a: 1 }])).toEqual({ a: 1 });
    expect(commonLabels([])).toEqual({});
  });
});
