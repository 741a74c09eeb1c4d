import { LatencyHistogram, ParseError } from '@netbench/plugin-api';

// `packet, txTime(sec), rxTime(sec), latency(usec)` (or `rtt(usec)` with --full-rtt).
const ROW_RE = /^\d+, [\d.]+, [\d.]+, ([\d.]+)$/;
const HEADER_RE = /^packet, txTime\(sec\), rxTime\(sec\), (latency|rtt)\(usec\)$/m;

/**
 * Every observation of a `--full-log` file in an HdrHistogram, in
 * nanoseconds (sockperf logs usec with three decimals). The histogram is
 * what makes percentiles mergeable across trials and runs.
 */
export function fullLogHistogram(text: string, source?: string): LatencyHistogram {
  if (!HEADER_RE.test(text)) throw new ParseError('no "packet, txTime(sec), rxTime(sec), ..." header: not a sockperf --full-log file', source);
  const histogram = LatencyHistogram.create('ns');
  for (const line of text.split('\n')) {
    const row = ROW_RE.exec(line.trim());
    if (row) histogram.record(Number(row[1]) * 1000);
  }
  if (histogram.count === 0) throw new ParseError('the --full-log file holds no observations', source);
  return histogram;
}
