import type { Sample } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import { ResultsBuilder } from './__fixtures__/results.js';
import { groupBy, groupByParts, observe } from './observations.js';

describe('observations', () => {
  it('gives every sample the configuration of its trial and labels, built once per distinct one', () => {
    const b = new ResultsBuilder();
    // One trial whose samples alternate direction (built per sample, consecutive ones differ).
    const both = b.trial('iperf3', 'tcp', { duration: 2, streams: 1 });
    for (let i = 0; i < 6; i++) both.add('Interval Throughput', 900 + i, 'Mbits/sec', { direction: i % 2 ? 'reverse' : 'forward', interval_start: i, interval_end: i + 1 });
    b.trial('ping', 'icmp', { count: 5 }).add('Average Latency', 0.07, 'ms');
    const results = b.build();
    // A sample naming a trial the record does not list: tool and test come from its labels.
    const orphan: Sample = { ...results.samples[0]!, sampleId: 'x', trialId: 't0099', labels: { tool: 'netperf', test: 'TCP_RR', direction: 7 } };
    const input = [{ ...results, samples: [...results.samples, orphan] }];
    const observations = observe(input);
    expect(observations).toHaveLength(8);
    for (const o of observations) {
      expect(o.configKey).toBe(JSON.stringify([...o.config]));
      expect(o.config.get('direction')).toBe(o.sample.labels['direction'] === undefined ? undefined : String(o.sample.labels['direction']));
      expect(o.config.get('tool')).toBe(o.trial?.tool ?? o.sample.labels['tool']);
    }
    const keys = observations.map((o) => o.configKey);
    expect(new Set(keys.slice(0, 6)).size).toBe(2);
    expect(keys[0]).toBe(keys[2]);
    expect(keys[0]).not.toBe(keys[1]);
    expect(observations[0]!.config).toBe(observations[4]!.config);
    expect(observations[7]!.config).toEqual(
      new Map<string, unknown>([
        ['tool', 'netperf'],
        ['test', 'TCP_RR'],
        ['direction', '7'],
      ]),
    );
    expect(observe(input)).toBe(observations);
  });

  it('keeps the plain path and each tunnel apart, even with the same tool parameters', () => {
    const b = new ResultsBuilder();
    for (const tunnel of ['none', 'wg', 'ipsec']) b.trial('netperf', 'TCP_STREAM', { duration: 5 }).add('TCP_STREAM_Throughput', 100, 'Mbits/sec', { tunnel });
    const observations = observe([b.build()]);
    expect(new Set(observations.map((o) => o.configKey)).size).toBe(3);
    expect(observations.map((o) => o.config.get('tunnel'))).toEqual(['none', 'wg', 'ipsec']);
  });

  it('groups by key parts as groupBy does with the parts joined', () => {
    const items = Array.from({ length: 200 }, (_, i) => ({ a: i % 3, b: `b${i % 4}`, c: i % 5 === 0 ? undefined : 'c' }));
    const parts = groupByParts(items, (x) => [x.a, x.b, x.c]);
    const joined = [...groupBy(items, (x) => JSON.stringify([x.a, x.b, x.c ?? null])).values()];
    expect(parts).toEqual(joined);
    expect(parts.length).toBe(24);
  });
});
