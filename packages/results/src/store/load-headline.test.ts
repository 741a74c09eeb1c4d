import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunResults } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import { loadHeadline } from './load-headline.js';
import { runShow } from './show-result.js';

// A real kernel-VM run: a netem ping trial, then four uploads through a deep tbf, fq_codel and cake (README beside it).
const real = JSON.parse(readFileSync(join(import.meta.dirname, '__fixtures__/load-results.json'), 'utf8')) as RunResults;
const of = (trial: string) => real.samples.filter((s) => s.trialId === trial);
const value = (trial: string, metric: string, probe?: string) =>
  of(trial).find((s) => s.metric === metric && s.labels.flow === 'summary' && (probe === undefined || s.labels.probe === probe))!.value;

describe('the headline of a latency-under-load trial', () => {
  it("is the total goodput and the probe's idle → loaded p50, increase and RPM; other trials have none", () => {
    expect(loadHeadline(of('t0003'))).toEqual({
      goodput: { metric: 'goodput_total', value: value('t0003', 'goodput_total'), unit: 'Mbits/sec' },
      probe: 'icmp',
      idle: { metric: 'latency_idle_p50', value: value('t0003', 'latency_idle_p50', 'icmp'), unit: 'ms' },
      loaded: { metric: 'latency_loaded_p50', value: value('t0003', 'latency_loaded_p50', 'icmp'), unit: 'ms' },
      increase: { metric: 'latency_increase', value: value('t0003', 'latency_increase', 'icmp'), unit: 'ms' },
      responsiveness: { metric: 'responsiveness', value: value('t0003', 'responsiveness'), unit: 'RPM' },
    });
    expect(loadHeadline(of('t0001'))).toBeUndefined();
  });

  it("results show: the goodput is the result (not a flow's throughput) and the percentiles are the loaded ones", () => {
    const shown = runShow('', real).trials.find((t) => t.id === 'three' || t.id === 't0003')!;
    const perFlow = of('t0003')
      .filter((s) => s.metric === 'TCP_STREAM_Throughput' && /^up-/.test(String(s.labels.flow)) && s.labels.interval_seconds === undefined)
      .map((s) => s.value);
    expect(perFlow).toHaveLength(4);
    expect(shown.summary.headline).toEqual({ metric: 'goodput_total', value: value('t0003', 'goodput_total'), unit: 'Mbits/sec' });
    expect(perFlow).not.toContain(shown.summary.headline!.value);
    expect(shown.summary.latency).toMatchObject({ p50: value('t0003', 'latency_loaded_p50', 'icmp'), metric: 'icmp latency under load' });
    expect(shown.summary.load?.idle?.value).toBe(value('t0003', 'latency_idle_p50', 'icmp'));
  });

  it('a percentile needs n ≥ 5/(1−q): 984 pings show p99 but not p99.9, and say n', () => {
    const ping = runShow('', real).trials.find((t) => t.id === 't0001')!;
    expect(ping.summary.latency).toMatchObject({ n: 984, hidden: ['p999'] });
    expect(ping.summary.latency?.p99).toBeGreaterThan(0);
    expect(ping.summary.latency?.p999).toBeUndefined();
  });
});
