import type { Labels, Sample } from '@netbench/plugin-api';
import { NetbenchError } from '@netbench/plugin-api';
import { betterDirection, type Direction } from './direction.js';
import { median } from './quantile.js';
import { seriesKey, seriesLabels } from './series-key.js';

/** Bulk throughput of iperf3 (received) and netperf TCP_STREAM: what k8s-netperf's check compares. */
export const DEFAULT_CHECK_METRICS = ['Throughput', 'TCP_STREAM_Throughput'] as const;
/** Labels that name the hosts of a trial: they differ between paths by construction. */
const HOST_NAME_LABELS = ['client_host', 'server_host'];

export interface PathCheckOptions {
  /** The label whose values name the paths (e.g. `benchmark`). */
  readonly by: string;
  /** Its value for the reference path (e.g. `host-network`). */
  readonly baseline: string;
  /** Its values for the paths checked against the reference (e.g. `pod-other-node`). */
  readonly candidates: readonly string[];
  /** Percent a candidate may fall short of the baseline (the worse way) and still pass. */
  readonly tolerancePct: number;
  /** Metrics to check (default `DEFAULT_CHECK_METRICS`). */
  readonly metrics?: readonly string[];
  /** Further labels that do not tell series apart (e.g. netperf's `transport_mss` when MTUs differ). */
  readonly ignore?: readonly string[];
}

export interface PathCheckRow {
  readonly metric: string;
  readonly unit: string;
  readonly candidate: string;
  /** The labels that identify the series (test, parameters), the path label left out. */
  readonly labels: Labels;
  readonly direction: Direction;
  /** Medians of each side's samples (repetitions). */
  readonly baselineValue: number;
  readonly candidateValue: number;
  readonly n: { readonly baseline: number; readonly candidate: number };
  /** (candidate − baseline) / baseline × 100. */
  readonly deltaPct: number;
  readonly passed: boolean;
}

export interface PathCheck {
  readonly by: string;
  readonly baseline: string;
  readonly tolerancePct: number;
  readonly rows: readonly PathCheckRow[];
  /** Series a candidate has that the baseline lacks (nothing to compare them with). */
  readonly unmatched: readonly string[];
  readonly passed: boolean;
}

/**
 * k8s-netperf's pass/fail, generalised: for each candidate path, every
 * series (same metric, unit, test and parameters; the path label and host
 * names ignored) is compared with the baseline path's series of the same
 * key, by medians. It fails when the candidate is worse than the baseline by
 * more than the tolerance. Pure; throws when nothing can be compared.
 */
export function checkPaths(samples: readonly Sample[], options: PathCheckOptions): PathCheck {
  if (!(options.tolerancePct >= 0 && options.tolerancePct < 100)) throw new NetbenchError(`tolerance must be a percentage from 0 to 100, not ${options.tolerancePct}`);
  const metrics = new Set(options.metrics ?? DEFAULT_CHECK_METRICS);
  const keyOptions = { ignore: [options.by, ...HOST_NAME_LABELS, ...(options.ignore ?? [])] };
  const sides = new Map<string, Map<string, Sample[]>>();
  for (const sample of samples) {
    const path = sample.labels[options.by];
    if (!metrics.has(sample.metric) || path === undefined) continue;
    const side = sides.get(String(path)) ?? new Map<string, Sample[]>();
    const key = seriesKey(sample.metric, sample.unit, sample.labels, keyOptions);
    side.set(key, [...(side.get(key) ?? []), sample]);
    sides.set(String(path), side);
  }
  const baseline = sides.get(options.baseline);
  const known = [...sides.keys()].sort().join(', ') || 'none';
  if (!baseline) throw new NetbenchError(`no ${[...metrics].join('/')} samples with ${options.by}=${options.baseline} (values of ${options.by}: ${known})`);
  const rows: PathCheckRow[] = [];
  const unmatched: string[] = [];
  for (const candidate of options.candidates) {
    const side = sides.get(candidate);
    if (!side) throw new NetbenchError(`no ${[...metrics].join('/')} samples with ${options.by}=${candidate} (values of ${options.by}: ${known})`);
    for (const [key, values] of side) {
      const reference = baseline.get(key);
      const first = values[0]!;
      if (!reference) {
        unmatched.push(`${candidate}: ${key}`);
        continue;
      }
      const direction = betterDirection(first.metric, first.unit) ?? 'higher';
      const baselineValue = median(reference.map((s) => s.value));
      const candidateValue = median(values.map((s) => s.value));
      const deltaPct = baselineValue === 0 ? 0 : ((candidateValue - baselineValue) / Math.abs(baselineValue)) * 100;
      const worsePct = direction === 'higher' ? -deltaPct : deltaPct;
      rows.push({
        metric: first.metric,
        unit: first.unit,
        candidate,
        labels: seriesLabels(first.labels, keyOptions),
        direction,
        baselineValue,
        candidateValue,
        n: { baseline: reference.length, candidate: values.length },
        deltaPct,
        passed: worsePct <= options.tolerancePct,
      });
    }
  }
  if (rows.length === 0) {
    throw new NetbenchError(
      `no series of ${options.candidates.join(', ')} matches one of ${options.baseline} (same metric, test and parameters); ${unmatched.length} unmatched — labels that differ between the paths can be left out with --ignore`,
    );
  }
  return { by: options.by, baseline: options.baseline, tolerancePct: options.tolerancePct, rows, unmatched, passed: rows.every((r) => r.passed) };
}
