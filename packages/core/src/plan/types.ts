import type { FleetHost, TrialSearch, TrialSpec } from '@netbench/plugin-api';
import type { AddressChoice, Scalar, Spec } from '../spec/types.js';

export type { FleetHost };

/** One tool invocation with fixed parameters between fixed hosts. */
export interface PlannedTrial {
  /** `t0001`, ... in plan order. */
  readonly id: string;
  readonly index: number;
  /** Index into `spec.benchmarks` and its display name. */
  readonly benchmark: number;
  readonly benchmarkName: string;
  readonly tool: string;
  /** Tool-defined test name (`TCP_RR`, `tcp`, `icmp`, ...). */
  readonly test: string;
  /** Every parameter that changes the result; becomes sample labels. */
  readonly params: Readonly<Record<string, Scalar>>;
  /** Fleet host ids. */
  readonly client: string;
  readonly server: string;
  readonly ip: AddressChoice;
  /** Matrix values of the cell this trial came from. */
  readonly cell: Readonly<Record<string, Scalar>>;
  /** Seconds the tool itself measures (for progress and ETA). */
  readonly estimatedSeconds: number;
  /** Bulk traffic the trial sends (from the tool's `TrialSpec.traffic`), for egress cost estimates. */
  readonly traffic?: TrialSpec['traffic'];
  /**
   * Set for a synchronized trial (a benchmark with `flows:`): the flows run
   * at once, released at one barrier (docs/flows.md). `client`/`server` are
   * then the first flow's, and `test`/`params` the trial's own (for a
   * bidirectional mix, `test` joins the flows' tests with `+`).
   */
  readonly flows?: readonly PlannedFlow[];
  /** A step of a search (`TrialSpec.search`); `group` is made unique per benchmark, cell and repetition. */
  readonly search?: TrialSearch;
}

/** One flow of a synchronized trial: a tool invocation on its own host pair. */
export interface PlannedFlow {
  /** Unique within the trial; the `flow` label of its samples (`client->s1`). */
  readonly label: string;
  readonly tool: string;
  readonly test: string;
  readonly params: Readonly<Record<string, Scalar>>;
  /** Fleet host ids. */
  readonly client: string;
  readonly server: string;
  readonly ip: AddressChoice;
  readonly estimatedSeconds: number;
  readonly traffic?: TrialSpec['traffic'];
  /** Seconds after the barrier the flow starts measuring (its `ctx.flow.release()` resolves then); 0 when absent. */
  readonly startAfter?: number;
}

export interface Plan {
  readonly spec: Spec;
  readonly fleet: readonly FleetHost[];
  readonly trials: readonly PlannedTrial[];
  /** Matrix cells kept after filters (1 without a matrix). */
  readonly cells: number;
  /** Sum of trials' measuring time divided by concurrency. */
  readonly estimatedSeconds: number;
  /**
   * Each `publish[]` entry's settings as its publisher's schema parsed them
   * when the spec was validated (defaults applied), by entry index; `undefined`
   * where the publisher is not installed. The publish phase hands these on.
   * They hold secrets resolved from `${env:…}`: never print or store them.
   */
  readonly publishSettings?: readonly unknown[];
}
