import type { PkbFlags } from '../flags.js';
import type { Reachability } from '../ip-types.js';
import type { Path, Problems } from '../problems.js';
import type { PkbVm } from '../vms.js';

/** What a benchmark translator gets: one PKB benchmark config, already read. */
export interface BenchmarkContext {
  /** The PKB benchmark (`netperf`, `iperf`, ...). */
  readonly benchmark: string;
  /** Path of the benchmark config in the PKB document (its top-level key). */
  readonly base: Path;
  readonly config: Readonly<Record<string, unknown>>;
  readonly flags: PkbFlags;
  readonly vms: readonly PkbVm[];
  readonly reach: Reachability;
  readonly problems: Problems;
  /** The tool PKB's `iperf` benchmark (iperf 2) maps to: `iperf` when that plugin is installed, else `iperf3`. */
  readonly iperfTool: 'iperf' | 'iperf3';
}

/** One native `benchmarks[]` entry and where its fields came from. */
export interface NativeBenchmark {
  readonly block: Record<string, unknown>;
  /** Native field → PKB path. */
  readonly origins: Readonly<Record<string, Path>>;
  /** One line for the converted YAML: what PKB step this reproduces. */
  readonly note: string;
}

/** Benchmark-level options (`options:` of the spec) a PKB benchmark implies. */
export interface NativeOptions {
  concurrency?: number;
  trialTimeout?: number;
  repetitions?: number;
  /** PKB's `install_packages: false` on a VM: netbench installs no tools (a run-wide option). */
  install?: boolean;
}

export interface BenchmarkTranslation {
  readonly benchmarks: NativeBenchmark[];
  readonly options?: NativeOptions;
}

/** The flags path of a flag the config sets, else the benchmark config itself. */
export function flagPath(ctx: BenchmarkContext, name: string): Path {
  return ctx.flags.has(name) ? ctx.flags.pathOf(name) : ctx.base;
}

/** `vms` must hold at least (or exactly) `count` VMs, as the PKB benchmark checks in its Prepare. */
export function needVms(ctx: BenchmarkContext, count: number, exactly: boolean): boolean {
  const found = ctx.vms.length;
  if (found === count || (!exactly && found > count)) return true;
  // A VM group that could not be read already has its own error; a count of what is left would only add noise.
  if (ctx.problems.issues.length > 0) return false;
  if (found < count || exactly) {
    ctx.problems.error([...ctx.base, 'vm_groups'], `PKB's ${ctx.benchmark} benchmark needs ${exactly ? 'exactly' : 'at least'} ${count} VMs; this config has ${found}`);
    return false;
  }
  return true;
}
