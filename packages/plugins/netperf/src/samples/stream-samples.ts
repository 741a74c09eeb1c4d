import type { Labels, SampleInput } from '@netbench/plugin-api';
import type { NetperfResult } from '../result.js';
import { isRequestResponse } from '../tests.js';
import { histogramFromBuckets } from './histogram.js';
import { packetRateSamples } from './packet-rate.js';
import { MBPS, MICROSECONDS, TRANSACTIONS_PER_SECOND } from './units.js';

// PKB's latency metric suffixes, in PKB's order, then the mean PKB lacks.
const LATENCY_STATS = ['p50', 'p90', 'p99', 'min', 'max', 'stddev', 'mean'] as const;

/** Labels that describe how a result was obtained (PKB's metadata names where PKB has one). */
export function resultLabels(result: NetperfResult): Labels {
  const labels: Labels = {};
  const { confidence } = result;
  if (confidence) {
    labels.confidence_level = confidence.level;
    if (confidence.iterations !== undefined) labels.confidence_iter = confidence.iterations;
    if (confidence.widthPercent !== undefined) labels.confidence_width_percent = confidence.widthPercent;
    if (confidence.achieved !== undefined) labels.confidence_achieved = confidence.achieved;
  }
  if (result.mss !== undefined && result.mss > 0) labels.transport_mss = result.mss;
  const clientCc = result.fields.LOCAL_CONG_CONTROL?.trim();
  const serverCc = result.fields.REMOTE_CONG_CONTROL?.trim();
  if (clientCc) labels.client_cc = clientCc;
  if (serverCc) labels.server_cc = serverCc;
  return labels;
}

/**
 * Samples of one netperf process, named as PKB names a single-stream run:
 * `<TEST>_Throughput` (Mbits/sec) or `<TEST>_Transaction_Rate`
 * (transactions_per_second), `<TEST>_Latency_<stat>` (us) for
 * request/response tests, `<TEST>_Latency_Histogram` when netperf printed one.
 */
export function streamSamples(result: NetperfResult, extraLabels: Labels = {}): SampleInput[] {
  const { test } = result;
  const labels = { ...resultLabels(result), ...extraLabels };
  const samples: SampleInput[] = [];
  const rr = isRequestResponse(test);
  samples.push(
    rr
      ? { metric: `${test}_Transaction_Rate`, value: result.throughput, unit: TRANSACTIONS_PER_SECOND, labels }
      : { metric: `${test}_Throughput`, value: result.throughput, unit: MBPS, labels },
  );
  if (rr) {
    if (result.histogram && result.histogram.length > 0) {
      // PKB publishes the histogram as a sample of value 0 that carries it.
      const histogram = histogramFromBuckets(result.histogram).encode();
      samples.push({ metric: `${test}_Latency_Histogram`, value: 0, unit: MICROSECONDS, labels, histogram });
    }
    for (const stat of LATENCY_STATS) {
      const value = result.latency[stat];
      if (value !== undefined) samples.push({ metric: `${test}_Latency_${stat}`, value, unit: MICROSECONDS, labels });
    }
  }
  samples.push(...packetRateSamples(result, labels));
  samples.push(...extraSamples(result, labels));
  return samples;
}

/** Transport retransmissions and CPU utilisation, when netperf measured them (not PKB metrics). */
function extraSamples(result: NetperfResult, labels: Labels): SampleInput[] {
  const { test } = result;
  const samples: SampleInput[] = [];
  if (result.localRetransmissions !== undefined) {
    samples.push({ metric: `${test}_Local_Transport_Retransmissions`, value: result.localRetransmissions, unit: 'count', labels });
  }
  if (result.remoteRetransmissions !== undefined) {
    samples.push({ metric: `${test}_Remote_Transport_Retransmissions`, value: result.remoteRetransmissions, unit: 'count', labels });
  }
  if (result.localCpuPercent !== undefined) {
    samples.push({ metric: `${test}_Local_CPU_Util`, value: result.localCpuPercent, unit: 'percent', labels });
  }
  if (result.remoteCpuPercent !== undefined) {
    samples.push({ metric: `${test}_Remote_CPU_Util`, value: result.remoteCpuPercent, unit: 'percent', labels });
  }
  return samples;
}
