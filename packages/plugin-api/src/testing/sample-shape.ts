import { LatencyHistogram } from '../samples/histogram.js';
import type { SampleInput } from '../samples/types.js';

// PKB's own metric names have spaces (`Min Latency`), so only a printable one-line name is required.
const METRIC_RE = /^[^\s\p{Cc}](?:[^\p{Cc}]{0,198}[^\s\p{Cc}])?$/u;

/** Problems with one sample as a tool returns it, or an empty list. */
export function sampleProblems(sample: unknown): string[] {
  if (typeof sample !== 'object' || sample === null) return ['a sample must be an object'];
  const s = sample as Partial<Record<keyof SampleInput, unknown>>;
  const problems: string[] = [];
  if (typeof s.metric !== 'string' || !METRIC_RE.test(s.metric))
    problems.push(`metric ${JSON.stringify(s.metric)} must be a one-line name without surrounding blanks (e.g. latency_p50)`);
  if (typeof s.value !== 'number' || !Number.isFinite(s.value))
    problems.push(`value of ${String(s.metric)} must be a finite number, not ${JSON.stringify(s.value) ?? String(s.value)}`);
  if (typeof s.unit !== 'string' || s.unit === '') problems.push(`unit of ${String(s.metric)} must be a non-empty string`);
  if (s.timestamp !== undefined && (typeof s.timestamp !== 'number' || !Number.isFinite(s.timestamp)))
    problems.push(`timestamp of ${String(s.metric)} must be milliseconds since the epoch`);
  if (s.labels !== undefined) {
    if (typeof s.labels !== 'object' || s.labels === null) problems.push(`labels of ${String(s.metric)} must be an object`);
    else
      for (const [key, value] of Object.entries(s.labels)) {
        const ok = typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
        if (!ok) problems.push(`label ${key} of ${String(s.metric)} must be a string, finite number or boolean, not ${JSON.stringify(value) ?? String(value)}`);
      }
  }
  if (s.histogram !== undefined) problems.push(...histogramProblems(s.histogram, String(s.metric)));
  return problems;
}

function histogramProblems(value: unknown, metric: string): string[] {
  const h = value as { encoding?: unknown; unit?: unknown; data?: unknown; count?: unknown };
  if (typeof h !== 'object' || h === null) return [`histogram of ${metric} must be an object`];
  if (h.encoding !== 'hdr-base64') return [`histogram of ${metric}: encoding must be hdr-base64 (use LatencyHistogram.encode())`];
  if (h.unit !== 'ns' && h.unit !== 'us' && h.unit !== 'ms') return [`histogram of ${metric}: unit must be ns, us or ms`];
  if (typeof h.count !== 'number' || !Number.isInteger(h.count) || h.count < 0) return [`histogram of ${metric}: count must be a whole number`];
  try {
    const decoded = LatencyHistogram.decode(h as Parameters<typeof LatencyHistogram.decode>[0]);
    if (decoded.count !== h.count) return [`histogram of ${metric}: says count ${h.count} but holds ${decoded.count} values`];
  } catch (error) {
    return [`histogram of ${metric} does not decode: ${error instanceof Error ? error.message : String(error)}`];
  }
  return [];
}
