import { isPlainObject } from '../matrix/placeholders.js';
import { CONFIG_MARKERS } from './flag-notes.js';

/** PKB benchmarks netbench translates. */
export const SUPPORTED_BENCHMARKS = ['ping', 'netperf', 'iperf', 'netperf_aggregate', 'container_netperf'] as const;
export type SupportedBenchmark = (typeof SUPPORTED_BENCHMARKS)[number];

export function isSupportedBenchmark(name: string): name is SupportedBenchmark {
  return (SUPPORTED_BENCHMARKS as readonly string[]).includes(name);
}

/** Top-level keys of a native spec: a file with any of these is not read as a PKB config. */
const NATIVE_ONLY_KEYS = ['hosts', 'benchmarks', 'matrix'];

/**
 * Is this parsed YAML a PerfKit Benchmarker config rather than a netbench
 * spec? It is when it has none of a spec's `hosts`/`benchmarks`/`matrix`,
 * and a top-level key names a benchmark netbench translates (`netperf:`,
 * even empty) or holds a benchmark config (`vm_groups`, `flags`,
 * `flag_matrix`, ...).
 */
export function isPkbConfig(raw: unknown): raw is Record<string, unknown> {
  if (!isPlainObject(raw)) return false;
  if (NATIVE_ONLY_KEYS.some((key) => key in raw)) return false;
  return Object.entries(raw).some(([key, value]) => isBenchmarkConfig(key, value));
}

/** A top-level entry that is a benchmark config (of any PKB benchmark). */
export function isBenchmarkConfig(key: string, value: unknown): boolean {
  if (isSupportedBenchmark(key)) return value === null || isPlainObject(value);
  return isPlainObject(value) && (CONFIG_MARKERS.some((marker) => marker in value) || (typeof value.name === 'string' && isSupportedBenchmark(value.name)));
}
