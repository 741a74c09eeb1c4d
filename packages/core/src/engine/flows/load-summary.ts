import type { Labels, Sample, SampleInput } from '@netbench/plugin-api';
import { LOAD_PROBES, type LoadProbe } from '../../spec/load-schema.js';

/**
 * Summary of a latency-under-load trial (docs/latency-under-load.md), from
 * its flows' samples on the controller's clock:
 * - `latency_idle_p50|p90|p99` (ms, per probe): probe RTTs before the load
 *   started and from 1 s after it stopped (the queue drains) to the end;
 * - `latency_loaded_p50|p90|p99` (ms, per probe, `load_direction`): from
 *   the first second of load on (slow start filling the queue) to its end;
 * - `latency_increase` (ms, per probe): loaded p50 − idle p50;
 * - `responsiveness` (RPM): 60,000 / the mean over probe kinds of each
 *   kind's loaded RTTs trimmed at their 95th percentile (the draft's
 *   trimmed mean; foreign probes only);
 * - `send_delay_*` and `receive_delay_*` (ms, irtt probes only): the same
 *   idle/loaded percentiles and increase for each one-way delay, which says
 *   which direction's queue the load filled;
 * - `goodput` per bulk flow and `goodput_upload|download|total` (sum).
 * ICMP probes are ping's per-reply `rtt`; UDP probes are netperf UDP_RR
 * intervals, one transaction in flight, so RTT = 1000 / transactions/s;
 * irtt probes are irtt's per-packet `rtt`, `send_delay`, `receive_delay`.
 */
export interface LoadWindow {
  /** When the probes were released (the barrier), ms on the controller's clock. */
  readonly t0: number;
  readonly idleSeconds: number;
  readonly loadSeconds: number;
}

/** Seconds of load not counted as loaded (slow start), at most. */
const RAMP_S = 1;
/** Seconds after the load stops before latency counts as idle again. */
const DRAIN_S = 1;

export type LoadPhase = 'idle' | 'loaded' | 'ramp' | 'drain';

/** Which phase a time (ms) falls in. */
export function loadPhase(window: LoadWindow, time: number, hasLoad: boolean): LoadPhase {
  if (!hasLoad) return 'idle';
  const loadStart = window.t0 + window.idleSeconds * 1000;
  const loadEnd = loadStart + window.loadSeconds * 1000;
  const ramp = Math.min(RAMP_S, window.loadSeconds * 0.1) * 1000;
  if (time < loadStart) return 'idle';
  if (time < loadStart + ramp) return 'ramp';
  if (time <= loadEnd) return 'loaded';
  if (time <= loadEnd + DRAIN_S * 1000) return 'drain';
  return 'idle';
}

/** The probe kinds of a load test, as `probes:` names them: ping, netperf UDP_RR, irtt. */
export const PROBE_KINDS = LOAD_PROBES;
export type ProbeKind = LoadProbe;

/** RTT (ms) of a probe interval sample, with its probe kind; `undefined` for other samples. */
export function probeRtt(sample: Pick<Sample, 'metric' | 'value' | 'labels'>): { probe: ProbeKind; ms: number } | undefined {
  if (sample.metric === 'rtt' && sample.labels.tool === 'ping') return { probe: 'icmp', ms: sample.value };
  if (sample.metric === 'rtt' && sample.labels.tool === 'irtt') return { probe: 'irtt', ms: sample.value };
  if (sample.metric === 'UDP_RR_Transaction_Rate' && sample.value > 0) return { probe: 'udp', ms: 1000 / sample.value };
  return undefined;
}

/** The one-way delays irtt times per packet: client → server (`send_delay`) and back (`receive_delay`). */
export const ONE_WAY_METRICS = ['send_delay', 'receive_delay'] as const;
export type OneWayMetric = (typeof ONE_WAY_METRICS)[number];

/** One-way delay (ms) of an irtt interval sample; `undefined` for other samples. */
export function probeOneWay(sample: Pick<Sample, 'metric' | 'value' | 'labels'>): { way: OneWayMetric; ms: number } | undefined {
  if (sample.labels.tool !== 'irtt') return undefined;
  return (ONE_WAY_METRICS as readonly string[]).includes(sample.metric) ? { way: sample.metric as OneWayMetric, ms: sample.value } : undefined;
}

/** Direction of a bulk flow's throughput sample, or `undefined`. */
export function bulkDirection(sample: Pick<Sample, 'metric'>): 'upload' | 'download' | undefined {
  if (sample.metric === 'TCP_STREAM_Throughput') return 'upload';
  if (sample.metric === 'TCP_MAERTS_Throughput') return 'download';
  return undefined;
}

/** The p-th percentile (0..100) of values, linear between closest ranks; NaN for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (rank - low);
}

/** Mean of the values at or below their 95th percentile (the draft's trimmed mean). */
export function trimmedMean95(values: readonly number[]): number {
  const cut = percentile(values, 95);
  const kept = values.filter((v) => v <= cut);
  return kept.reduce((sum, v) => sum + v, 0) / kept.length;
}

const round = (value: number) => Math.round(value * 1000) / 1000;

/**
 * The summary samples. `intervals`: the trial's interval samples;
 * `finals`: each flow's final samples (labels include `flow`).
 */
export function loadSummary(window: LoadWindow, intervals: readonly Sample[], finals: readonly SampleInput[]): SampleInput[] {
  const out: SampleInput[] = [];
  const summary: Labels = { flow: 'summary' };
  const bulk = finals.filter((s) => bulkDirection(s) !== undefined && s.labels?.stream === undefined);
  const directions = new Set(bulk.map((s) => bulkDirection(s)!));
  const hasLoad = directions.size > 0;
  const loadDirection = directions.size === 2 ? 'both' : ([...directions][0] ?? 'none');

  const phased = (pick: (s: Sample) => { key: string; ms: number } | undefined) => {
    const byKey = new Map<string, { idle: number[]; loaded: number[] }>();
    for (const sample of intervals) {
      const value = pick(sample);
      if (!value) continue;
      const phase = loadPhase(window, sample.timestamp, hasLoad);
      if (phase !== 'idle' && phase !== 'loaded') continue;
      const bucket = byKey.get(value.key) ?? { idle: [], loaded: [] };
      bucket[phase].push(value.ms);
      byKey.set(value.key, bucket);
    }
    return [...byKey].sort(([a], [b]) => a.localeCompare(b));
  };
  /** `PREFIX_idle_pN`, `PREFIX_loaded_pN` and `PREFIX_increase` of one probe's values. */
  const percentiles = (prefix: string, labels: Labels, { idle, loaded }: { idle: number[]; loaded: number[] }) => {
    for (const p of [50, 90, 99]) {
      if (idle.length > 0) out.push({ metric: `${prefix}_idle_p${p}`, value: round(percentile(idle, p)), unit: 'ms', labels: { ...labels, probe_count: idle.length } });
      if (loaded.length > 0)
        out.push({
          metric: `${prefix}_loaded_p${p}`,
          value: round(percentile(loaded, p)),
          unit: 'ms',
          labels: { ...labels, load_direction: loadDirection, probe_count: loaded.length },
        });
    }
    if (idle.length > 0 && loaded.length > 0) {
      out.push({ metric: `${prefix}_increase`, value: round(percentile(loaded, 50) - percentile(idle, 50)), unit: 'ms', labels: { ...labels, load_direction: loadDirection } });
    }
  };

  const rtts = phased((s) => {
    const rtt = probeRtt(s);
    return rtt && { key: rtt.probe, ms: rtt.ms };
  });
  const trimmed: number[] = [];
  for (const [probe, phases] of rtts) {
    percentiles('latency', { ...summary, probe }, phases);
    if (phases.loaded.length > 0) trimmed.push(trimmedMean95(phases.loaded));
  }
  if (trimmed.length > 0) {
    const mean = trimmed.reduce((sum, v) => sum + v, 0) / trimmed.length;
    // Round trips only: a one-way delay is not a round trip of the draft's.
    out.push({
      metric: 'responsiveness',
      value: Math.round(60_000 / mean),
      unit: 'RPM',
      labels: { ...summary, probe: rtts.map(([probe]) => probe).join('+'), load_direction: loadDirection },
    });
  }
  for (const [way, phases] of phased((s) => {
    const delay = probeOneWay(s);
    return delay && { key: delay.way, ms: delay.ms };
  })) {
    percentiles(way, { ...summary, probe: 'irtt' }, phases);
  }

  const totals = { upload: 0, download: 0 };
  for (const sample of bulk) {
    const direction = bulkDirection(sample)!;
    totals[direction] += sample.value;
    out.push({ metric: 'goodput', value: sample.value, unit: sample.unit, labels: { flow: String(sample.labels?.flow), direction } });
  }
  const unit = bulk[0]?.unit ?? 'Mbits/sec';
  if (directions.has('upload')) out.push({ metric: 'goodput_upload', value: round(totals.upload), unit, labels: summary });
  if (directions.has('download')) out.push({ metric: 'goodput_download', value: round(totals.download), unit, labels: summary });
  if (hasLoad) out.push({ metric: 'goodput_total', value: round(totals.upload + totals.download), unit, labels: summary });
  return out;
}
