import type { MetricDeclaration } from '@netbench/plugin-api';
import { isRequestResponse, NETPERF_TESTS, type NetperfTest } from './tests.js';

const higher = (role: 'rate' | 'throughput', primary?: true): MetricDeclaration => ({ role, better: 'higher', ...(primary ? { primary } : {}) });

function testMetrics(test: NetperfTest): [string, MetricDeclaration][] {
  // Several streams add their sum (transactions/s for a request/response test, as PKB).
  const total: [string, MetricDeclaration] = [`${test}_Throughput_total`, higher('throughput', true)];
  if (!isRequestResponse(test)) return [[`${test}_Throughput`, higher('throughput', true)], total];
  return [
    [`${test}_Transaction_Rate`, higher('rate')],
    [
      `${test}_Latency_p50`,
      {
        role: 'latency',
        better: 'lower',
        primary: true,
        percentiles: { p50: `${test}_Latency_p50`, p90: `${test}_Latency_p90`, p99: `${test}_Latency_p99` },
      },
    ],
    [`${test}_Latency_p99`, { role: 'latency', better: 'lower' }],
    total,
  ];
}

/**
 * PKB's netperf names, per test: a request/response test's result is its
 * transaction rate and its p50 latency the heatmap's metric (netperf prints
 * p50, p90 and p99, no p99.9); a bulk test's is its throughput.
 */
export const NETPERF_METRICS: Readonly<Record<string, MetricDeclaration>> = Object.fromEntries(NETPERF_TESTS.flatMap(testMetrics));
