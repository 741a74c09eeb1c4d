import type { Labels } from '@netbench/plugin-api';
import type { BootstrapInterval } from './bootstrap.js';
import type { Direction } from './direction.js';
import type { MannWhitneyResult } from './mann-whitney.js';
import type { ReplicateUnit } from './replicates.js';
import type { Verdict } from './verdict.js';
import type { WelchLogRefusal, WelchLogResult } from './welch.js';

export interface ComparedSide {
  /**
   * The median of the side's replicate values: each replicate's value is the
   * median of its samples (a histogram row: the replicate's percentile).
   */
  readonly value: number;
  /** Replicates behind it (runs, or repetitions when both sides are the same runs): what the tests count. */
  readonly n: number;
  /** Samples behind it (a histogram row: observations, e.g. packets): they describe the replicates, they are not replicates. */
  readonly observations: number;
}

export interface ComparisonRow {
  readonly metric: string;
  /**
   * What each replicate contributes: `value`, the median of its samples;
   * the percentile (`p99`) of its histograms for a metric that has them;
   * `intervals`, the median of its per-interval samples (iperf3 `-i`).
   * The sides' figures are medians of those over the replicates.
   */
  readonly statistic: string;
  readonly unit: string;
  /** The labels that identify this series (benchmark, test, parameters, tool labels). */
  readonly labels: Labels;
  /** What one replicate is (replicates.ts): `run`, or `repetition` when both sides are the same runs. */
  readonly replicates: ReplicateUnit;
  readonly baseline: ComparedSide;
  readonly candidate: ComparedSide;
  /** candidate − baseline. */
  readonly delta: number;
  /** delta / |baseline| × 100. */
  readonly deltaPct: number;
  readonly direction?: Direction;
  /** `null` when no test could decide (one replicate a side: `verdict` is `no repetitions`, `note` says `not tested: one run each`). */
  readonly significant: boolean | null;
  /**
   * The test whose result is `significant`. `welch-log`: Welch's t-test on
   * the logarithms, for a single-number row with too few values a side for
   * Mann–Whitney to reach alpha (assumes log-normal values).
   */
  readonly decidedBy: 'mann-whitney' | 'welch-log' | 'bootstrap' | null;
  readonly verdict: Verdict;
  readonly mannWhitney?: MannWhitneyResult;
  /** Welch's t-test on the logarithms, with the interval of the candidate/baseline ratio, when it decided. */
  readonly welch?: WelchLogResult;
  /** Why Welch's test on logarithms could not stand in for a too-few row (a value ≤ 0, no spread). */
  readonly welchRefused?: WelchLogRefusal;
  /** Interval of candidate − baseline (of medians, or of the percentile). */
  readonly bootstrap?: BootstrapInterval & { readonly of: string };
  readonly note?: string;
}

/** What every row starts with: what was measured, both sides and the change. */
export type RowHead = Omit<ComparisonRow, 'significant' | 'decidedBy' | 'verdict'>;
