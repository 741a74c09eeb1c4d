import { describe, expect, it } from 'vitest';
import { LiveInterims } from './interim.js';
import { TRANSACTIONS_PER_SECOND } from './samples/units.js';

// Lines as Debian's netperf 2.7 prints them with `-D 0.5 -- -o throughput,throughput_units` (captured on loopback).
const RR = [
  'MIGRATED TCP REQUEST/RESPONSE TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to 127.0.0.1 () port 0 AF_INET : demo : first burst 0',
  '21783.65,Trans/s,0.500,1795580899.529',
  '20077.28,Trans/s,0.542,1795580900.072',
  'Throughput,Throughput Units',
  '25378.53,Trans/s',
];

describe('LiveInterims (netperf demo-mode lines as live values)', () => {
  it('reads interim lines with their time since netperf started; the final result and headers are not live values', () => {
    const live = new LiveInterims('TCP_RR', undefined, 10_000);
    const got = RR.map((line, i) => live.sample(line, 10_000 + 500 * i));
    expect(got.filter(Boolean)).toHaveLength(2);
    expect(got[1]).toEqual({
      metric: 'TCP_RR_Transaction_Rate',
      value: 21783.65,
      unit: TRANSACTIONS_PER_SECOND,
      timestamp: 10_500,
      labels: { interval_seconds: 0.5, client_clock_end: 1795580899.529, interval_start: 0, interval_end: 0.5 },
    });
    expect(got[2]?.labels).toMatchObject({ interval_start: 0.5, interval_end: 1 });
  });

  it('labels the stream only when the trial has several, and refuses a rate of the wrong kind', () => {
    const live = new LiveInterims('TCP_STREAM', 1, 0);
    expect(live.sample('21783.65,Trans/s,0.500,1795580899.529', 100)).toBeUndefined();
    const sample = live.sample('9411.20,10^6bits/s,1.000,1795580899.529', 1000);
    expect(sample?.metric).toBe('TCP_STREAM_Throughput');
    expect(sample?.labels).toMatchObject({ stream: 1, interval_end: 1 });
  });
});
