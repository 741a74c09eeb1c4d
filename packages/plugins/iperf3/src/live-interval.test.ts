import { describe, expect, it } from 'vitest';
import { liveIntervalSample } from './live-interval.js';

// A one-off server's report (`iperf3 -s -1 --forceflush -i 0.5`; client `-P 2 -R -t 2`), captured on loopback with iperf 3.12.
const SERVER = `-----------------------------------------------------------
Server listening on 23201 (test #1)
-----------------------------------------------------------
Accepted connection from 127.0.0.1, port 37342
[  5] local 127.0.0.1 port 23201 connected to 127.0.0.1 port 37346
[ ID] Interval           Transfer     Bitrate         Retr  Cwnd
[  5]   0.00-0.50   sec   291 MBytes  4.88 Gbits/sec    1   3.00 MBytes       
[  8]   0.00-0.50   sec   291 MBytes  4.88 Gbits/sec    5   1.25 MBytes       
[SUM]   0.00-0.50   sec   582 MBytes  9.75 Gbits/sec    6             
- - - - - - - - - - - - - - - - - - - - - - - - -
[  5]   0.50-1.00   sec   280 MBytes  4.68 Gbits/sec    0   1.12 MBytes       
[  8]   0.50-1.00   sec   270 MBytes  4.51 Gbits/sec    2   1.12 MBytes       
[SUM]   0.50-1.00   sec   550 MBytes  9.20 Gbits/sec    2             
- - - - - - - - - - - - - - - - - - - - - - - - -
[ ID] Interval           Transfer     Bitrate         Retr
[  5]   0.00-2.00   sec  1.12 GBytes  4.81 Gbits/sec    2             sender
[SUM]   0.00-2.00   sec  2.22 GBytes  9.51 Gbits/sec   13             sender`.split('\n');

describe('liveIntervalSample (iperf3 server intervals as live values)', () => {
  it('takes the [SUM] interval lines of a multi-stream test, not the streams or the final summary', () => {
    const got = SERVER.map((line) => liveIntervalSample(line, { streams: 2, reverse: true }, 7)).filter((s) => s !== undefined);
    expect(got).toEqual([
      { metric: 'Interval Throughput', value: 9750, unit: 'Mbits/sec', timestamp: 7, labels: { direction: 'reverse', interval_start: 0, interval_end: 0.5, omitted: false } },
      { metric: 'Interval Throughput', value: 9200, unit: 'Mbits/sec', timestamp: 7, labels: { direction: 'reverse', interval_start: 0.5, interval_end: 1, omitted: false } },
    ]);
  });

  it('takes the stream line of a one-stream test; UDP, omitted and --bidir lines', () => {
    expect(liveIntervalSample('[  5]   0.00-1.00   sec   114 KBytes   934 Kbits/sec  0.021 ms  0/81 (0%)  ', { streams: 1, reverse: false })?.value).toBeCloseTo(0.934);
    expect(liveIntervalSample('[  5]   0.00-1.00   sec  1.09 GBytes  9.38 Gbits/sec                  (omitted)', { streams: 1, reverse: false })?.labels).toMatchObject({
      omitted: true,
      direction: 'forward',
    });
    expect(liveIntervalSample('[  5][TX-S]   1.00-2.00   sec   500 MBytes  4.19 Gbits/sec', { streams: 1, reverse: false })?.labels).toMatchObject({ direction: 'reverse' });
    expect(liveIntervalSample('[  7][RX-S]   1.00-2.00   sec   500 MBytes  4.19 Gbits/sec', { streams: 1, reverse: false })?.labels).toMatchObject({ direction: 'forward' });
    expect(liveIntervalSample('[SUM]   0.00-1.00   sec  1.09 GBytes  9.38 Gbits/sec', { streams: 1, reverse: false })).toBeUndefined();
    expect(liveIntervalSample('iperf3: error - the server is busy running a test', { streams: 1, reverse: false })).toBeUndefined();
  });
});
