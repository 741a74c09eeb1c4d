import type { MetricDeclaration } from '../samples/types.js';

/**
 * The declaration of PKB's ping metric names (`Average Latency`, `Latency
 * p50` … `Latency p99.9`, `Packet Loss`), which ping, fping and hping3 emit:
 * the mean latency is the result (and the heatmap's metric), the printed
 * percentiles its p-columns.
 */
export const PING_METRICS: Readonly<Record<string, MetricDeclaration>> = {
  'Average Latency': {
    role: 'latency',
    better: 'lower',
    primary: true,
    statistic: 'mean',
    percentiles: { p50: 'Latency p50', p90: 'Latency p90', p99: 'Latency p99', 'p99.9': 'Latency p99.9' },
  },
  'Latency p50': { role: 'latency', better: 'lower' },
  'Latency p99': { role: 'latency', better: 'lower' },
  'Packet Loss': { role: 'loss', better: 'lower' },
};
