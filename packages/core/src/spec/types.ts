import type { TunnelSpec } from '../tunnels/tunnel-schema.js';
import type { FlowsSpec } from './flows-schema.js';

/** The server address a benchmark targets: `internal`, `external`, or `tunnel:NAME` (the server's end of tunnel NAME). */
export type AddressChoice = 'internal' | 'external' | `tunnel:${string}`;

/** A matrix/parameter value. Integers stay numbers; `${x}` keeps the type. */
import type { Scalar } from '@netbench/plugin-api';

export type { Scalar };

/** A host template in the spec. Cloud-specific fields are validated by the cloud plugin. */
export interface HostSpec {
  readonly cloud: string;
  /** Share one provisioned host between every trial that needs the same config (default true). */
  readonly reuse: boolean;
  /**
   * Plugin-owned fields (`zone`, `machineType`, `link`, ...) as written, validated
   * against the cloud's `hostSchema` for every matrix cell. Values may still hold
   * `${var}` placeholders: `createPlan` substitutes them per cell (a whole-scalar
   * `${var}` keeps the variable's type) and parses the result with the schema
   * (defaults applied) into `FleetHost.config`.
   */
  readonly [field: string]: unknown;
}

/** One `benchmarks[]` entry. Tool-specific fields are validated by the tool plugin. */
export interface BenchmarkSpec {
  readonly tool: string;
  /** Display name; defaults to the tool name. */
  readonly name?: string;
  /** Host name (key of `hosts`) that runs the client side (with `flows`: the first flow's). */
  readonly client: string;
  /** Host name that runs the server side. */
  readonly server: string;
  /** Which address of the server the client targets: its own, or its end of a tunnel (`tunnel:NAME`, docs/tunnels.md). */
  readonly ip: AddressChoice;
  /** Several client/server pairs measured at once in one synchronized trial (docs/flows.md). */
  readonly flows?: FlowsSpec;
  /**
   * Tool-owned fields as written; like host fields they may hold `${var}`
   * placeholders (so may `name`), substituted per cell by `createPlan` before
   * the tool's `schema` parses them and `trials()` runs.
   */
  readonly [field: string]: unknown;
}

export type { MatrixSpec } from '../matrix/types.js';

import type { MatrixSpec } from '../matrix/types.js';

export interface PublisherSpec {
  /** Publisher plugin name (`json`, `csv`, ...). */
  readonly type: string;
  readonly [field: string]: unknown;
}

export interface RunOptions {
  /** Trials run at once (default 1: concurrent measurements disturb each other). */
  readonly concurrency: number;
  /** Seconds a trial may take beyond its own measuring time before it is killed. */
  readonly trialTimeout: number;
  /** Extra attempts for a trial that failed with a retryable error. */
  readonly retries: number;
  /** Seconds allowed for provisioning / prepare / teardown of the whole fleet. */
  readonly provisionTimeout: number;
  readonly teardownTimeout: number;
  /**
   * Parent folder of run folders; default `~/.netbench/runs`. The loader makes
   * it absolute, relative to the spec file's folder.
   */
  readonly runsDir?: string;
  /** Install missing tools on hosts during prepare (default true). */
  readonly install: boolean;
  /**
   * Read every end's CPU, network and qdisc counters during each trial and
   * say what limited its result (default true; `NETBENCH_COUNTERS=off` turns
   * it off for every run; docs/explain.md).
   */
  readonly counters?: boolean;
  /**
   * Run every trial this many times (default 1), so comparisons have
   * repetitions to test. With more than one, each trial carries a
   * `repetition` parameter (1..N) and so a `repetition` label.
   */
  readonly repetitions?: number;
  /**
   * `plan` (default): repetition by repetition, each in plan order.
   * `random`: all trials of all repetitions shuffled, so drift over time
   * spreads evenly over the configurations (flent's batch mode).
   */
  readonly order?: 'plan' | 'random';
  /** Seed of the `random` order; the planner picks and records one when absent. */
  readonly seed?: number;
  /** This spec runs shard `index` (from 0) of `count` of the plan (`netbench run --shard i/N`). */
  readonly shard?: { readonly index: number; readonly count: number };
  /** Study id: the runs of all shards carry it as the `study` label and are read as one. */
  readonly study?: string;
  /** Hosts (spec names) on machines that exist outside the run which several shards may use at once, safely. */
  readonly sharedHosts?: readonly string[];
}

/** A validated spec. `source` keeps the file for error positions and for the run record. */
export interface Spec {
  readonly name: string;
  readonly description?: string;
  readonly hosts: Readonly<Record<string, HostSpec>>;
  readonly benchmarks: readonly BenchmarkSpec[];
  readonly matrix?: MatrixSpec;
  /** Host-to-host tunnels set up in prepare, torn down in teardown (docs/tunnels.md). */
  readonly tunnels?: readonly TunnelSpec[];
  readonly publish: readonly PublisherSpec[];
  readonly options: RunOptions;
  readonly source?: { readonly file: string; readonly text: string };
}
