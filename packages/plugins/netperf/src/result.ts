import type { NetperfTest } from './tests.js';

/** Latency statistics of one netperf run, in microseconds. Absent when netperf did not report them. */
export interface LatencyStats {
  readonly min?: number;
  readonly mean?: number;
  readonly max?: number;
  readonly stddev?: number;
  readonly p50?: number;
  readonly p90?: number;
  readonly p99?: number;
}

export interface ConfidenceResult {
  /** Confidence level asked for (95 or 99). */
  readonly level: number;
  /** Full width of the interval asked for, in percent of the result (`-I level,width`). */
  readonly targetWidthPercent?: number;
  /** Full width netperf reached, in percent of the result. */
  readonly widthPercent?: number;
  readonly iterations?: number;
  /** False when netperf gave up at the maximum iterations before reaching the target width. */
  readonly achieved?: boolean;
}

/** One bucket of netperf's printed histogram: latencies from `lowerUs` (inclusive). */
export interface HistogramBucket {
  readonly lowerUs: number;
  readonly count: number;
}

/** What one netperf invocation reported, whatever its output format. */
export interface NetperfResult {
  readonly test: NetperfTest;
  readonly format: 'omni-csv' | 'omni-keyval' | 'omni-human' | 'classic';
  /** Mbit/s (10^6 bits/s) for bulk tests; transactions per second for request/response tests. */
  readonly throughput: number;
  /** The unit netperf printed (`10^6bits/s`, `Trans/s`, ...). */
  readonly rawThroughputUnits: string;
  readonly elapsedSeconds?: number;
  /** Empty for bulk tests. */
  readonly latency: LatencyStats;
  readonly localRetransmissions?: number;
  readonly remoteRetransmissions?: number;
  readonly mss?: number;
  /** CPU utilisation in percent, when asked for with `-c`/`-C`. */
  readonly localCpuPercent?: number;
  readonly remoteCpuPercent?: number;
  readonly confidence?: ConfidenceResult;
  readonly histogram?: readonly HistogramBucket[];
  /** Every value netperf printed, by omni selector name (CSV headers mapped back), as text. */
  readonly fields: Readonly<Record<string, string>>;
  /** Things in the output worth telling the user (confidence not reached, features not compiled in). */
  readonly warnings: readonly string[];
}
