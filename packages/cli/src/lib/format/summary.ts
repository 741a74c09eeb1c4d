import type { RunRecord, Sample, TrialRecord } from '@netbench/plugin-api';
import { formatTable } from './table.js';
import { formatValue } from './number.js';

// Headline metrics per trial, most telling first; per-stream and per-interval samples are left to the files.
const HEADLINE_RE = [/(^|_)throughput$/i, /transaction_rate$/i, /(^|_)request_rate$/i, /(^| |_)p50$/i, /(^| |_)p99$/i, /^average latency$/i, /^packet loss$/i, /jitter/i, /retransmit/i, /^http_errors$/i];
const MAX_HEADLINES = 4;

function headlines(samples: readonly Sample[]): Sample[] {
  // Per-stream, per-interval and per-error-kind samples are details of a total that is shown.
  const whole = samples.filter((s) => s.labels.stream === undefined && s.labels.interval_start === undefined && s.labels.error_kind === undefined);
  const picked: Sample[] = [];
  for (const re of HEADLINE_RE) {
    for (const sample of whole) {
      if (picked.length >= MAX_HEADLINES) return picked;
      if (re.test(sample.metric) && !picked.includes(sample)) picked.push(sample);
    }
  }
  return picked;
}

const SHORT_UNITS: Record<string, string> = { transactions_per_second: 'tx/s', percent: '%', count: '' };

/** `TCP_RR_Latency_p50 41 us` → `Latency_p50 41 us`: the test is in its own column. */
function describeSample(sample: Sample, test: string): string {
  const name = sample.metric.startsWith(`${test}_`) ? sample.metric.slice(test.length + 1) : sample.metric;
  const unit = SHORT_UNITS[sample.unit] ?? sample.unit;
  return `${name} ${formatValue(sample.value)}${unit ? ` ${unit}` : ''}`;
}

function describeParams(trial: TrialRecord): string {
  return Object.entries({ ...trial.cell, ...trial.params })
    // Off switches only widen the table; every other parameter (duration too) decides the result.
    .filter(([, value]) => value !== false)
    .map(([key, value]) => `${key}=${value}`)
    .join(' ');
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
    { header: 'hosts', value: (t) => `${t.client} → ${t.server}` },
    { header: 'parameters', value: describeParams },
    { header: 'status', value: (t) => (t.status === 'succeeded' ? 'ok' : t.status) },
    {
      header: 'results',
      value: (t) =>
        t.status === 'failed'
          ? (t.error ?? '').split('\n')[0]!.slice(0, 80)
          : headlines(byTrial.get(t.id) ?? [])
              .map((s) => describeSample(s, t.test))
              .join(' · '),
    },
  ]);
}
