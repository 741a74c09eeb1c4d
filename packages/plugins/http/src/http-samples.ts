import type { SampleInput } from '@netbench/plugin-api';
import { LatencyHistogram } from '@netbench/plugin-api';
import type { ErrorKind, HttpResult } from './http-result.js';

/** `99.99` → `p99_99` (a metric name without a dot). */
export function percentileName(p: number): string {
  return `p${String(p).replace('.', '_')}`;
}

/**
 * Samples of one generator run. `HTTP_Request_Rate` counts only requests
 * answered with success (2xx; wrk: below 400) and not timed out, per second
 * of load; every failure is in `HTTP_Errors`, in total and by kind.
 */
export function httpSamples(result: HttpResult, labels: Readonly<Record<string, string | number | boolean>> = {}): SampleInput[] {
  const base = { generator: result.generator, ...(result.generatorVersion !== undefined ? { generator_version: result.generatorVersion } : {}), ...labels };
  const sample = (
    metric: string,
    value: number,
    unit: string,
    extra: Readonly<Record<string, string | number | boolean>> = {},
    histogram?: SampleInput['histogram'],
  ): SampleInput => ({
    metric,
    value,
    unit,
    labels: { ...base, ...extra },
    ...(histogram ? { histogram } : {}),
  });
  const samples: SampleInput[] = [];
  const rate = result.seconds > 0 ? result.successes / result.seconds : 0;
  samples.push(sample('HTTP_Request_Rate', rate, 'requests/s'));
  if (result.offeredRate !== undefined) samples.push(sample('HTTP_Offered_Rate', result.offeredRate, 'requests/s'));
  samples.push(sample('HTTP_Requests', result.requests, 'count'));
  samples.push(sample('HTTP_Successes', result.successes, 'count'));
  samples.push(sample('HTTP_Duration', result.seconds, 's'));
  const errorKinds = Object.entries(result.errors) as [ErrorKind, number][];
  samples.push(
    sample(
      'HTTP_Errors',
      errorKinds.reduce((sum, [, n]) => sum + n, 0),
      'count',
    ),
  );
  for (const [kind, count] of errorKinds) samples.push(sample('HTTP_Errors', count, 'count', { error_kind: kind }));
  if (result.transferBytesPerSecond !== undefined) samples.push(sample('HTTP_Transfer_Rate', (result.transferBytesPerSecond * 8) / 1e6, 'Mbits/sec'));
  const histogram = percentileHistogram(result);
  const { mean, stdev, min, max } = result.latency;
  if (mean !== undefined) samples.push(sample('HTTP_Latency_mean', mean, 'ms', {}, histogram));
  if (stdev !== undefined) samples.push(sample('HTTP_Latency_stdev', stdev, 'ms'));
  if (min !== undefined) samples.push(sample('HTTP_Latency_min', min, 'ms'));
  if (max !== undefined) samples.push(sample('HTTP_Latency_max', max, 'ms'));
  for (const [p, ms] of result.percentiles) samples.push(sample(`HTTP_Latency_${percentileName(p)}`, ms, 'ms'));
  for (const [metric, value, unit, extra] of result.extra) samples.push(sample(metric, value, unit, extra));
  return samples;
}

/**
 * The latency distribution as a histogram (microseconds), rebuilt from the
 * generator's percentile points: the requests between two listed
 * percentiles are recorded at the upper one, so the listed percentiles read
 * back as the generator gave them and any other one rounds up to the next
 * listed point. Undefined without percentiles or requests.
 */
export function percentileHistogram(result: HttpResult): SampleInput['histogram'] | undefined {
  const points = result.percentiles.filter(([p, ms]) => p > 0 && Number.isFinite(ms) && ms >= 0);
  const total = result.requests;
  if (points.length === 0 || total <= 0) return undefined;
  const histogram = LatencyHistogram.create('us');
  let recorded = 0;
  let previous = 0;
  for (const [p, ms] of points) {
    const upTo = Math.round((Math.min(p, 100) / 100) * total);
    if (upTo > recorded) {
      histogram.record(ms * 1000, upTo - recorded);
      recorded = upTo;
    }
    previous = ms;
  }
  // The tail beyond the last listed percentile goes at the slowest request when known.
  if (recorded < total) histogram.record((result.latency.max ?? previous) * 1000, total - recorded);
  return histogram.encode();
}
