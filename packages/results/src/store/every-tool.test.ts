// The right headline for every built-in tool, read from a real local-lab run
// of one short trial of each tool and mode (__fixtures__/every-tool-results.json).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunResults } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import { runShow } from './show-result.js';

const results = JSON.parse(readFileSync(join(import.meta.dirname, '__fixtures__/every-tool-results.json'), 'utf8')) as RunResults;
const trials = runShow('', results).trials;
const trial = (id: string) => trials.find((t) => t.id === id)!;

describe('results show: every tool by its own headline', () => {
  it.each([
    ['t0001', 'ping', 'Average Latency', 'Packet Loss'],
    ['t0003', 'fping', 'Average Latency', 'Packet Loss'],
    // irtt declares its roles (rtt_mean is a latency, packet_loss a loss): no built-in name matches them.
    ['t0004', 'irtt', 'rtt_mean', 'packet_loss'],
    ['t0005', 'netperf TCP_RR', 'TCP_RR_Transaction_Rate', undefined],
    ['t0006', 'netperf TCP_CRR', 'TCP_CRR_Transaction_Rate', undefined],
    ['t0007', 'netperf TCP_STREAM', 'TCP_STREAM_Throughput', undefined],
    ['t0008', 'netperf TCP_MAERTS', 'TCP_MAERTS_Throughput', undefined],
    ['t0009', 'netperf UDP_RR', 'UDP_RR_Transaction_Rate', undefined],
    ['t0010', 'netperf UDP_STREAM', 'UDP_STREAM_Throughput', undefined],
    ['t0011', 'iperf3 tcp', 'Throughput', undefined],
    ['t0012', 'iperf3 udp', 'Throughput', 'Packet Loss'],
    ['t0013', 'iperf tcp', 'Throughput', undefined],
    // iperf 2's UDP rate is `UDP Throughput` (PKB's name): declared by the plugin; it had no headline.
    ['t0014', 'iperf udp', 'UDP Throughput', 'Packet Loss'],
    // HTTP is requests/s, not the transfer rate the bytes make.
    ['t0015', 'http wrk', 'HTTP_Request_Rate', undefined],
    ['t0016', 'http ab', 'HTTP_Request_Rate', undefined],
  ])('%s (%s): %s', (id, _tool, headline, loss) => {
    const { summary } = trial(id);
    expect(trial(id).status).toBe('succeeded');
    expect(summary.headline?.metric).toBe(headline);
    expect(summary.loss?.metric).toBe(loss);
  });

  it("ping's 20 packets show p50 with n = 20 and no p99 (n ≥ 5/(1−q))", () => {
    const { latency } = trial('t0001').summary;
    expect(latency).toMatchObject({ n: 20, hidden: expect.arrayContaining(['p99']) });
    expect(latency?.p50).toBeGreaterThan(0);
    expect(latency).not.toHaveProperty('p99');
  });

  it('a latency-under-load trial is its total goodput and idle → loaded latency', () => {
    const { summary } = trial('t0017');
    expect(summary.headline?.metric).toBe('goodput_total');
    expect(summary.load?.idle && summary.load.loaded).toBeTruthy();
  });

  it('a mesh trial is its aggregate (the sum of its flows), with the flow count, not the median of flows and sum', () => {
    const mesh = trial('t0018');
    const aggregate = results.samples.find((s) => s.trialId === 't0018' && s.labels.flow === 'aggregate' && s.metric === 'TCP_STREAM_Throughput')!;
    expect(mesh.flows).toBe(2);
    expect(mesh.summary.headline).toEqual({ metric: 'TCP_STREAM_Throughput', value: aggregate.value, unit: aggregate.unit });
    const perFlow = results.samples.filter((s) => s.trialId === 't0018' && s.labels.flow !== 'aggregate' && s.metric === 'TCP_STREAM_Throughput');
    expect(perFlow.every((s) => s.value < aggregate.value)).toBe(true);
  });
});
