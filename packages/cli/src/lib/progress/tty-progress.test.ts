import { describe, expect, it } from 'vitest';
import { TtyProgress } from './tty-progress.js';

/** What a terminal of `columns` would show last: the status line after its last redraw. */
function lastLine(columns: number | undefined): string {
  let written = '';
  const out = {
    columns,
    write: (text: string) => {
      written += text;
      return true;
    },
  } as unknown as NodeJS.WriteStream;
  const progress = new TtyProgress(out);
  progress.handle({ runId: 'r', seq: 0, time: 0, type: 'trial-started', trial: 't1', index: 0, total: 1, tool: 'iperf3', test: 'tcp', attempt: 0, estimatedSeconds: 5 });
  const live = { runId: 'r', sampleId: 'live-t1-1', trialId: 't1', metric: 'Interval Throughput', value: 9380, unit: 'Mbits/sec', timestamp: 0, labels: {} };
  progress.handle({ runId: 'r', seq: 1, time: 1, type: 'trial-interval', trial: 't1', samples: [live] });
  return written.split('\r\x1b[2K').at(-1)!;
}

describe('TtyProgress', () => {
  it('shows the running trial and its latest value on the status line', () => {
    expect(lastLine(160)).toMatch(/trial 1\/1 · iperf3 tcp 0% · Interval throughput 9\.38 Gbit\/s · elapsed/);
  });

  it('keeps the whole line on a terminal that reports no size (0 columns), not 20 characters', () => {
    expect(lastLine(0)).toContain('Interval throughput 9.38 Gbit/s');
    expect(lastLine(undefined)).toContain('Interval throughput 9.38 Gbit/s');
    expect(lastLine(30)).toHaveLength(29);
  });
});
