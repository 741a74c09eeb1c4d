import type { Sample } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import type { PlannedTrial } from '../../plan/types.js';
import { SearchSteps } from './search-steps.js';

const step = (id: string, burst: number): PlannedTrial => ({
  id,
  index: 0,
  benchmark: 0,
  benchmarkName: 'n',
  tool: 'netperf',
  test: 'UDP_RR',
  params: { burst },
  client: 'c',
  server: 's',
  ip: 'internal',
  cell: {},
  estimatedSeconds: 1,
  search: { group: 'g', metric: 'rate', minGainPercent: 5 },
});
const sample = (trialId: string, value: number, labels: Sample['labels'] = {}): Sample => ({
  runId: 'r',
  sampleId: `r-${trialId}`,
  trialId,
  metric: 'rate',
  value,
  unit: 'tps',
  timestamp: 0,
  labels,
});

describe('SearchSteps', () => {
  it('runs steps while each beats the best by minGainPercent, then skips the rest with the reason', () => {
    const search = new SearchSteps();
    const [a, b, c, d] = [step('t1', 0), step('t2', 1), step('t3', 2), step('t4', 4)];
    search.record(a!, true, [sample('t1', 100)]);
    expect(search.skipReason(b!)).toBeUndefined();
    search.record(b!, true, [sample('t2', 110), sample('t2', 999, { stream: 0 })]);
    search.record(c!, true, [sample('t3', 112)]);
    expect(search.skipReason(d!)).toBe('search stopped: rate of t3 (112) rose less than 5 % over t2 (110)');
  });

  it("stops at a failed step, and reads a flows trial's aggregate only", () => {
    const failed = new SearchSteps();
    failed.record(step('t1', 0), false, []);
    expect(failed.skipReason(step('t2', 1))).toBe('search stopped: rate of t1 failed');
    const flows = new SearchSteps();
    const withFlows = { ...step('t1', 0), flows: [] };
    flows.record(withFlows, true, [sample('t1', 500, { flow: 'c->s1' })]);
    expect(flows.skipReason(step('t2', 1))).toBe('search stopped: rate of t1 was not reported');
  });
});
