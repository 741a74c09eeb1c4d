import type { Sample } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import { summarise } from './show-result.js';

const sample = (metric: string, value: number, unit: string, labels: Record<string, string> = {}): Sample =>
  ({
    metric,
    value,
    unit,
    timestamp: 0,
    runId: 'r',
    trialId: 't0065',
    sampleId: `${metric}-${value}-${JSON.stringify(labels)}`,
    labels: { tool: 'http', test: 'wrk', ...labels },
  }) as unknown as Sample;

describe('every metric of a trial (results show --metrics, the run page)', () => {
  it("keeps a total apart from its parts and wrk's per-thread mean, stdev and max apart (a 404 run: 9,293 errors, not a median of 0)", () => {
    // As the http plugin stores a wrk run against a path that 404s: errors in total and by kind, and wrk's thread statistics.
    const rows = summarise([
      sample('HTTP_Errors', 9293, 'count'),
      ...['connect', 'read', 'write', 'timeout'].map((kind) => sample('HTTP_Errors', 0, 'count', { error_kind: kind })),
      sample('HTTP_Errors', 9293, 'count', { error_kind: 'status' }),
      sample('wrk_Thread_Request_Rate', 7060, 'requests/s', { stat: 'mean' }),
      sample('wrk_Thread_Request_Rate', 8070, 'requests/s', { stat: 'stdev' }),
      sample('wrk_Thread_Request_Rate', 19520, 'requests/s', { stat: 'max' }),
    ]);
    expect(rows.map((r) => [r.metric, r.qualifier ?? '', r.value, r.n])).toEqual([
      ['HTTP_Errors', '', 9293, 1],
      ['HTTP_Errors', 'connect', 0, 1],
      ['HTTP_Errors', 'read', 0, 1],
      ['HTTP_Errors', 'write', 0, 1],
      ['HTTP_Errors', 'timeout', 0, 1],
      ['HTTP_Errors', 'status', 9293, 1],
      ['wrk_Thread_Request_Rate', 'mean', 7060, 1],
      ['wrk_Thread_Request_Rate', 'stdev', 8070, 1],
      ['wrk_Thread_Request_Rate', 'max', 19520, 1],
    ]);
  });

  it('still takes the median of repetitions of one figure', () => {
    const rows = summarise([1, 5, 3].map((v) => sample('HTTP_Request_Rate', v, 'requests/s')));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ value: 3, n: 3, min: 1, max: 5 });
    expect(rows[0]!.qualifier).toBeUndefined();
  });
});
