import type { NetbenchEvent } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import { ProgressState } from './progress-state.js';

const base = { runId: 'r', seq: 0 };

describe('ProgressState', () => {
  it('counts trials and scales the ETA by how long trials really took', () => {
    const state = new ProgressState();
    const events: NetbenchEvent[] = [
      { ...base, time: 0, type: 'run-started', name: 'x', runDir: '/tmp', trials: 3, hosts: 2, estimatedSeconds: 30 },
      { ...base, time: 0, type: 'phase-started', phase: 'execute' },
      { ...base, time: 0, type: 'trial-started', trial: 't0001', index: 0, total: 3, tool: 'netperf', test: 'TCP_RR', attempt: 0, estimatedSeconds: 10 },
      { ...base, time: 20_000, type: 'trial-finished', trial: 't0001', status: 'succeeded', durationMs: 20_000, samples: 5 },
      { ...base, time: 20_000, type: 'trial-started', trial: 't0002', index: 1, total: 3, tool: 'netperf', test: 'TCP_STREAM', attempt: 0, estimatedSeconds: 10 },
      { ...base, time: 25_000, type: 'trial-progress', trial: 't0002', fraction: 0.5 },
    ];
    for (const event of events) state.apply(event);
    expect(state.finished).toBe(1);
    expect(state.current.get('t0002')?.fraction).toBe(0.5);
    // 15 estimated seconds done in 25 s of wall time → pace 5/3; 15 estimated seconds remain.
    expect(state.etaSeconds(25_000)).toBeCloseTo(25, 5);
  });

  it('keeps the latest live value of a running trial, in its unit', () => {
    const state = new ProgressState();
    state.apply({ ...base, time: 0, type: 'trial-started', trial: 't1', index: 0, total: 1, tool: 'iperf3', test: 'tcp', attempt: 0, estimatedSeconds: 5 });
    const live = (value: number, unit: string, metric: string) => ({ runId: 'r', sampleId: 'live-t1-1', trialId: 't1', metric, value, unit, timestamp: 0, labels: {} });
    state.apply({
      ...base,
      time: 1,
      type: 'trial-interval',
      trial: 't1',
      samples: [live(8000, 'Mbits/sec', 'Interval Throughput'), live(9380, 'Mbits/sec', 'Interval Throughput')],
    });
    expect(state.current.get('t1')?.latest).toBe('Interval throughput 9.38 Gbit/s');
    state.apply({ ...base, time: 2, type: 'trial-interval', trial: 't1', samples: [live(0.062, 'ms', 'RTT')] });
    expect(state.current.get('t1')?.latest).toBe('RTT 62 µs');
  });

  it('has no ETA outside execute and counts failures', () => {
    const state = new ProgressState();
    state.apply({ ...base, time: 0, type: 'phase-started', phase: 'provision' });
    expect(state.etaSeconds(0)).toBeUndefined();
    state.apply({ ...base, time: 0, type: 'trial-finished', trial: 't1', status: 'failed', durationMs: 1, samples: 0, error: 'boom' });
    expect(state.failed).toBe(1);
  });
});
