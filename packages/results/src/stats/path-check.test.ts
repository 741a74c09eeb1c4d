import type { Sample } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import { checkPaths } from './path-check.js';

let id = 0;
const sample = (path: string, value: number, labels: Record<string, string | number> = {}, metric = 'Throughput'): Sample =>
  ({
    metric,
    value,
    unit: 'Mbits/sec',
    timestamp: 0,
    labels: { run_id: 'r', benchmark: path, tool: 'iperf3', test: 'tcp', client_host: `${path}-c`, server_host: `${path}-s`, ...labels },
    sampleId: `s${id++}`,
  }) as unknown as Sample;

describe('checkPaths (k8s-netperf pass/fail)', () => {
  const base = [sample('host-network', 1000, { mss: 96 }), sample('host-network', 2000, { mss: 1376 })];

  it('passes within the tolerance and fails beyond it, series by series (same parameters only)', () => {
    const samples = [...base, sample('pod', 950, { mss: 96 }), sample('pod', 1500, { mss: 1376 })];
    const check = checkPaths(samples, { by: 'benchmark', baseline: 'host-network', candidates: ['pod'], tolerancePct: 10 });
    expect(check.rows.map((r) => [r.labels['mss'], r.baselineValue, r.candidateValue, r.passed])).toEqual([
      [96, 1000, 950, true],
      [1376, 2000, 1500, false],
    ]);
    expect(check.rows[1]!.deltaPct).toBeCloseTo(-25);
    expect(check.passed).toBe(false);
    expect(checkPaths(samples, { by: 'benchmark', baseline: 'host-network', candidates: ['pod'], tolerancePct: 30 }).passed).toBe(true);
  });

  it('uses medians of repetitions, and a faster candidate always passes', () => {
    const samples = [...base, sample('pod', 900, { mss: 96 }), sample('pod', 990, { mss: 96 }), sample('pod', 995, { mss: 96 }), sample('pod', 3000, { mss: 1376 })];
    const check = checkPaths(samples, { by: 'benchmark', baseline: 'host-network', candidates: ['pod'], tolerancePct: 5 });
    expect(check.rows[0]).toMatchObject({ candidateValue: 990, n: { baseline: 1, candidate: 3 }, passed: true });
    expect(check.rows[1]!.passed).toBe(true);
  });

  it('reports series without a baseline counterpart, and refuses when nothing matches or a path is missing', () => {
    const samples = [...base, sample('pod', 1000, { mss: 96 }), sample('pod', 1000, { mss: 500 })];
    expect(checkPaths(samples, { by: 'benchmark', baseline: 'host-network', candidates: ['pod'], tolerancePct: 10 }).unmatched).toHaveLength(1);
    expect(() => checkPaths([...base, sample('pod', 1, { mss: 7 })], { by: 'benchmark', baseline: 'host-network', candidates: ['pod'], tolerancePct: 10 })).toThrow(
      /no series of pod matches/,
    );
    expect(() => checkPaths(base, { by: 'benchmark', baseline: 'host-network', candidates: ['nope'], tolerancePct: 10 })).toThrow(/benchmark=nope/);
    expect(() => checkPaths(base, { by: 'benchmark', baseline: 'x', candidates: ['host-network'], tolerancePct: 10 })).toThrow(/benchmark=x/);
    expect(() => checkPaths(base, { by: 'benchmark', baseline: 'host-network', candidates: ['host-network'], tolerancePct: 100 })).toThrow(/tolerance/);
  });

  it('a label that differs between paths can be ignored (netperf transport_mss under different MTUs)', () => {
    const samples = [sample('host-network', 1000, { transport_mss: 1448 }), sample('pod', 990, { transport_mss: 1398 })];
    expect(() => checkPaths(samples, { by: 'benchmark', baseline: 'host-network', candidates: ['pod'], tolerancePct: 10 })).toThrow();
    expect(checkPaths(samples, { by: 'benchmark', baseline: 'host-network', candidates: ['pod'], tolerancePct: 10, ignore: ['transport_mss'] }).passed).toBe(true);
  });
});
