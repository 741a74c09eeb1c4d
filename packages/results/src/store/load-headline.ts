import type { Labels } from '@netbench/plugin-api';
import type { Quantity } from './trial-summary.js';

/**
 * What a latency-under-load trial (`tool: load`) says, as flent's summary
 * does: the total goodput of its bulk flows, and one probe's idle and loaded
 * median RTT, their difference, and the responsiveness (RPM). A per-flow
 * figure is never its headline.
 */
export interface LoadHeadline {
  readonly goodput?: Quantity;
  /** The probe kind the latencies are of (icmp first, then udp, then irtt). */
  readonly probe?: string;
  readonly idle?: Quantity;
  readonly loaded?: Quantity;
  readonly increase?: Quantity;
  readonly responsiveness?: Quantity;
}

interface SampleLike {
  readonly metric: string;
  readonly value: number;
  readonly unit: string;
  readonly labels: Labels;
}

const PROBE_ORDER = ['icmp', 'udp', 'irtt'];

/** The headline of a trial's samples when it is a latency-under-load trial (it has the load summary), else undefined. */
export function loadHeadline(samples: readonly SampleLike[]): LoadHeadline | undefined {
  const summary = samples.filter((s) => s.labels.flow === 'summary');
  if (!summary.some((s) => s.metric === 'goodput_total' || s.metric.startsWith('latency_loaded_'))) return undefined;
  const find = (metric: string, probe?: string) => summary.find((s) => s.metric === metric && (probe === undefined || s.labels.probe === probe));
  const probes = [...new Set(summary.filter((s) => s.metric === 'latency_loaded_p50').map((s) => String(s.labels.probe)))];
  const probe = PROBE_ORDER.find((p) => probes.includes(p)) ?? probes[0];
  const q = (s: SampleLike | undefined): Quantity | undefined => (s ? { metric: s.metric, value: s.value, unit: s.unit } : undefined);
  const parts = {
    goodput: q(find('goodput_total')),
    probe,
    idle: q(find('latency_idle_p50', probe)),
    loaded: q(find('latency_loaded_p50', probe)),
    increase: q(find('latency_increase', probe)),
    responsiveness: q(find('responsiveness')),
  };
  return Object.fromEntries(Object.entries(parts).filter(([, v]) => v !== undefined)) as LoadHeadline;
}
