export type LabelValue = string | number | boolean;
/** A parameter or label value as a spec writes it. */
export type Scalar = string | number | boolean;
export type Labels = Record<string, LabelValue>;

/**
 * A latency histogram in HdrHistogram's compressed base64 encoding, so it is
 * bounded in memory, mergeable across streams, iterations and runs, and any
 * percentile can be asked for later. Values are recorded in `unit`.
 */
export interface EncodedHistogram {
  readonly encoding: 'hdr-base64';
  readonly unit: 'ns' | 'us' | 'ms';
  readonly data: string;
  readonly count: number;
}

/** What a tool returns for one measurement. */
export interface SampleInput {
  /** e.g. `latency_p50`, `throughput`, `TCP_RR_Transaction_Rate`. snake_case. */
  readonly metric: string;
  readonly value: number;
  /** e.g. `ms`, `us`, `Mbits/sec`, `transactions/sec`, `percent`, `count`. */
  readonly unit: string;
  /** Milliseconds since the epoch; defaults to the time the trial finished. */
  readonly timestamp?: number;
  readonly labels?: Labels;
  readonly histogram?: EncodedHistogram;
}

/** A sample as stored and published: the run adds identity and context labels. */
export interface Sample extends SampleInput {
  readonly timestamp: number;
  readonly labels: Labels;
  readonly runId: string;
  /** Unique within all runs (`<runId>-<n>`). */
  readonly sampleId: string;
  /** Planned trial id (`t0001`), absent for run-level samples (phase durations). */
  readonly trialId?: string;
}

/** What a tool's metric means, for charts, the report's results cell and `compare`'s direction. */
export interface MetricDeclaration {
  readonly role: 'latency' | 'throughput' | 'rate' | 'loss' | 'jitter';
  /** Which way is better. */
  readonly better: 'lower' | 'higher';
  /** The one metric a heatmap of this tool shows (e.g. its p50 latency); default false. */
  readonly primary?: boolean;
  /**
   * What the value is of the distribution it summarises, when it is one
   * statistic of it: `mean` makes a latency the result of a tool that
   * measures no rate (`results show`'s result column: `mean 0.053 ms`).
   */
  readonly statistic?: 'mean' | 'median' | 'min' | 'max';
  /**
   * For a latency: the metrics holding its percentiles, by percentile
   * (`{ p50: 'Latency p50', p99: 'Latency p99' }`), for the summary's
   * p50/p90/p99/p99.9 columns. A percentile the tool does not report is
   * left out (shown as `—`, never made up). The named metrics need no
   * declaration of their own.
   */
  readonly percentiles?: Readonly<Partial<Record<'p50' | 'p90' | 'p99' | 'p99.9', string>>>;
}
