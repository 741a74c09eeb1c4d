import type { Labels } from '@netbench/plugin-api';
import type { BootstrapInterval } from './bootstrap.js';
import type { Direction } from './direction.js';
import type { MannWhitneyResult } from './mann-whitney.js';
import type { Verdict } from './verdict.js';
import type { WelchLogRefusal, WelchLogResult } from './welch.js';

export interface ComparedSide {
  /** Median of the values (a histogram row: the percentile of the merged histograms). */
  readonly value: number;
  /** Values behind it: repetitions × runs (observations for a histogram row, intervals for an interval series). */
  readonly n: number;
}

export interface ComparisonRow {
  readonly metric: string;
  /**
   * `value`; the percentile (`p99`) for a metric compared by its histogram;
   * `intervals` for per-interval samples (iperf3 `-i`), compared as a
   * distribution: their medians and Mann–Whitney over the intervals.
   */
  readonly statistic: string;
  readonly unit: string;
  /** The labels that identify this series (benchmark, test, parameters, tool labels). */
  readonly labels: Labels;
  readonly baseline: ComparedSide;
  readonly candidate: ComparedSide;
  /** candidate − baseline. */
  readonly delta: number;
  /** delta / |baseline| × 100. */
  readonly deltaPct: number;
  readonly direction?: Direction;
  /** `null` when no test could decide. */
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
