import type { FlowCombine, FlowSupport } from '@netbench/plugin-api';

// Rates add up across flows; what PKB's multi-stream totals sum, the flows' totals sum too.
const SUM_RE = /_(?:Throughput|Transaction_Rate|Packet_Rate|Throughput_total|Packet_Rate_total)$/;
// PKB's mesh_network reports the average of the pairs' mean latencies.
const MEAN_RE = /_Latency_mean$/;

/**
 * netperf as flows of a synchronized trial: each flow waits at the barrier
 * once its netservers are leased, reports demo-mode interim results as
 * interval samples, and its rates add up across flows.
 */
export const netperfFlows: FlowSupport = {
  intervals: true,
  combine(metric: string): FlowCombine | undefined {
    if (SUM_RE.test(metric)) return 'sum';
    if (MEAN_RE.test(metric)) return 'mean';
    return undefined;
  },
};
