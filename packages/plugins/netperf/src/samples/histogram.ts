import { LatencyHistogram } from '@netbench/plugin-api';
import type { HistogramBucket } from '../result.js';

/** netperf's printed histogram as an HDR histogram, each bucket recorded at its lower bound (as PKB does). */
export function histogramFromBuckets(buckets: readonly HistogramBucket[]): LatencyHistogram {
  const histogram = LatencyHistogram.create('us');
  for (const bucket of buckets) histogram.record(bucket.lowerUs, bucket.count);
  return histogram;
}
