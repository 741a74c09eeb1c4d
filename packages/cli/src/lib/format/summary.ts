import type { RunRecord, Sample, TrialRecord } from '@netbench/plugin-api';
import { formatTable } from './table.js';
import { formatQuantity, metricName } from '@netbench/report/units';
import { loadHeadline, trialPath } from '@netbench/results';
import { describeLoadHeadline } from '@netbench/report/trial-rows';

// Headline metrics per trial, most telling first; per-stream and per-interval samples are left to the files.
const HEADLINE_RE = [/(^|_)throughput$/i, /packet_rate$/i, /transaction_rate$/i, /(^|_)request_rate$/i, /(^| |_)p50$/i, /(^| |_)p99$/i, /^average latency$/i, /^packet loss$/i, /jitter/i, /retransmit/i, /^http_errors$/i];
const MAX_HEADLINES = 4;

function headlines(samples: readonly Sample[]): Sample[] {
  // A synchronized trial is summed up by its aggregates (per-flow figures are in the results);
  // per-stream, per-interval and per-error-kind samples are details of a total that is shown.
  const flows = samples.some((s) => s.labels.flow === 'aggregate');
  const whole = samples.filter((s) => s.labels.stream === undefined && s.labels.interval_start === undefined && s.labels.error_kind === undefined && (!flows || s.labels.flow === 'aggregate'));
  const picked: Sample[] = [];
  for (const re of HEADLINE_RE) {
    for (const sample of whole) {
      if (picked.length >= MAX_HEADLINES) return picked;
      if (re.test(sample.metric) && !picked.includes(sample)) picked.push(sample);
    }
  }
  return picked;
}

/** `4 flows at once` for a synchronized trial (from its aggregates' `flow_count`). */
function flowsOf(samples: readonly Sample[]): string | undefined {
  const counts = samples.filter((s) => s.labels.flow === 'aggregate').map((s) => Number(s.labels.flow_count) || 0);
  return counts.length > 0 ? `${Math.max(...counts)} flows at once` : undefined;
}

/** `TCP_RR_Latency_p50 41 us` → `Latency p50 41 µs`: the test is in its own column; units by magnitude. */
function describeSample(sample: Sample, test: string): string {
  const name = sample.metric.startsWith(`${test}_`) ? sample.metric.slice(test.length + 1) : sample.metric;
  return `${metricName(name)} ${formatQuantity(sample.value, sample.unit)}`;
}

function describeParams(trial: TrialRecord): string {
  return Object.entries({ ...trial.cell, ...trial.params })
    // Off switches only widen the table; every other parameter (duration too) decides the result.
    .filter(([, value]) => value !== false)
    .map(([key, value]) => `${key}=${value}`)
    .join(' ');
}

/** A latency-under-load trial by its total goodput and idle → loaded latency; any other by its headline metrics. */
function trialResults(samples: readonly Sample[], test: string): string {
  const load = loadHeadline(samples);
  if (load) return describeLoadHeadline(load, formatQuantity);
  return headlines(samples).map((s) => describeSample(s, test)).join(' · ');
}

/** The table printed when a run ends: one line per trial with its headline results. */
export function formatSummary(record: RunRecord, samples: readonly Sample[]): string {
  const byTrial = new Map<string, Sample[]>();
  for (const sample of samples) {
    if (!sample.trialId) continue;
    const list = byTrial.get(sample.trialId) ?? [];
    list.push(sample);
    byTrial.set(sample.trialId, list);
  }
  return formatTable(record.trials, [
    { header: 'trial', value: (t) => t.id },
    { header: 'tool', value: (t) => t.tool },
    { header: 'test', value: (t) => t.test },
    { header: 'hosts', value: (t) => flowsOf(byTrial.get(t.id) ?? []) ?? trialPath(t.client, t.server, byTrial.get(t.id) ?? []) },
    { header: 'parameters', value: describeParams },
    { header: 'status', value: (t) => (t.status === 'succeeded' ? 'ok' : t.status) },
    {
      header: 'results',
      value: (t) =>
        t.status === 'failed'
          ? (t.error ?? '').split('\n')[0]!.slice(0, 80)
          : trialResults(byTrial.get(t.id) ?? [], t.test),
    },
  ]);
}
