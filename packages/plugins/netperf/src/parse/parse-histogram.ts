import { ParseError } from '@netbench/plugin-api';
import type { HistogramBucket } from '../result.js';

// Lower bound in microseconds of bucket 0 of each row netperf's HIST_report
// prints; bucket j of a row starts at j times the row's step.
const ROW_STEP_US: Readonly<Record<string, number>> = {
  UNIT_USEC: 1,
  TEN_USEC: 10,
  HUNDRED_USEC: 100,
  TENTH_MSEC: 100, // builds with OLD_HISTOGRAM fold everything under 100 us into its bucket 0
  UNIT_MSEC: 1_000,
  TEN_MSEC: 10_000,
  HUNDRED_MSEC: 100_000,
  UNIT_SEC: 1_000_000,
  TEN_SEC: 10_000_000,
};

const ROW_RE = /^\s*([A-Z_]+)\s*:((?:\s*:?\s*\d+)+)\s*$/;
const OVERFLOW_RE = /^\s*>100_SECS:\s*(\d+)\s*$/;
const TOTAL_RE = /^\s*HIST_TOTAL:\s*(\d+)\s*$/;

export interface ParsedHistogram {
  readonly buckets: HistogramBucket[];
  readonly total?: number;
}

/**
 * Read the histogram netperf prints with `-v 2` when built with
 * `--enable-histogram`. Buckets are keyed by their lower bound, as PKB's
 * `ParseHistogram` does, so percentiles match PKB's. Returns undefined when
 * the output holds no histogram.
 */
export function parseHistogram(lines: readonly string[], source?: string): ParsedHistogram | undefined {
  const buckets: HistogramBucket[] = [];
  let total: number | undefined;
  let found = false;
  lines.forEach((line, index) => {
    const row = ROW_RE.exec(line);
    const step = row ? ROW_STEP_US[row[1] as string] : undefined;
    if (row && step !== undefined) {
      found = true;
      const counts = (row[2] as string)
        .split(':')
        .map((cell) => cell.trim())
        .filter((cell) => cell !== '');
      if (counts.length !== 10) {
        throw new ParseError(`histogram row ${row[1]} has ${counts.length} buckets, expected 10`, source, index + 1);
      }
      counts.forEach((cell, j) => {
        const count = Number(cell);
        if (count > 0) buckets.push({ lowerUs: j * step, count });
      });
      return;
    }
    const overflow = OVERFLOW_RE.exec(line);
    if (overflow) {
      found = true;
      const count = Number(overflow[1]);
      if (count > 0) buckets.push({ lowerUs: 100_000_000, count });
      return;
    }
    const totalMatch = TOTAL_RE.exec(line);
    if (totalMatch) total = Number(totalMatch[1]);
  });
  if (!found) return undefined;
  // Rows of old and new builds overlap (HUNDRED_USEC and TENTH_MSEC); merge equal bounds.
  const merged = new Map<number, number>();
  for (const bucket of buckets) merged.set(bucket.lowerUs, (merged.get(bucket.lowerUs) ?? 0) + bucket.count);
  const sorted = [...merged].sort((a, b) => a[0] - b[0]).map(([lowerUs, count]) => ({ lowerUs, count }));
  return { buckets: sorted, total };
}
