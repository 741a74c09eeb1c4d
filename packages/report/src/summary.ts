import { RUN_FILES, type RunResults, type Sample, type TrialRecord } from '@netbench/plugin-api';
import { headlineMetric, loadHeadline, runShow, trialPath } from '@netbench/results';
import { metricName } from './metric-names.js';
import { describeLoadHeadline, diagnosisLines, type TrialRowTexts, trialRows } from './trial-rows.js';
import { formatQuantity } from './units.js';

export interface TrialSummary {
  readonly id: string;
  readonly tool: string;
  readonly test: string;
  readonly hosts: string;
  readonly parameters: string;
  readonly status: string;
  /** Headline results (`Latency p50 0.078 ms`), or the error of a failed trial. */
  readonly results: readonly string[];
  /** The row `results show` prints for it: result, p50/p90/p99/p99.9, loss, in the units their size fills. */
  readonly row: TrialRowTexts;
}

export interface RunSummary {
  readonly runId: string;
  readonly name: string;
  readonly status: string;
  readonly startedAt: string;
  readonly durationSeconds: number;
  readonly trials: { readonly total: number; readonly succeeded: number; readonly failed: number };
  readonly samples: number;
  readonly owner: string;
  readonly netbenchVersion: string;
}

export interface Environment {
  readonly hosts: readonly {
    readonly name: string;
    readonly cloud: string;
    readonly zone: string;
    readonly machineType: string;
    readonly os: string;
    readonly internalIp: string;
    readonly shaping: string;
    readonly congestionControl: string;
  }[];
  /** `tool version (features)` per tool, from the samples' `<tool>_version` labels. */
  readonly tools: readonly string[];
  readonly phases: readonly string[];
  readonly errors: readonly string[];
}

export function runSummary({ run, samples }: RunResults): RunSummary {
  const succeeded = run.trials.filter((t) => t.status === 'succeeded').length;
  return {
    runId: run.runId,
    name: run.name,
    status: run.status,
    startedAt: run.startedAt,
    durationSeconds: (Date.parse(run.finishedAt) - Date.parse(run.startedAt)) / 1000,
    trials: { total: run.trials.length, succeeded, failed: run.trials.filter((t) => t.status === 'failed').length },
    samples: samples.length,
    owner: run.owner,
    netbenchVersion: run.netbenchVersion,
  };
}

/** One row per trial with its headline results (all of a trial's metrics are in results.json). */
export function trialSummaries({ run, samples }: RunResults): TrialSummary[] {
  const byTrial = new Map<string, Sample[]>();
  for (const sample of samples) {
    if (sample.trialId === undefined) continue;
    const list = byTrial.get(sample.trialId) ?? [];
    list.push(sample);
    byTrial.set(sample.trialId, list);
  }
  const rows = trialRows(runShow('', { run, samples }).trials);
  return run.trials.map((trial, i) => ({
    id: trial.id,
    tool: trial.tool,
    test: trial.test,
    hosts: trialPath(trial.client, trial.server, byTrial.get(trial.id) ?? []),
    parameters: parameters(trial),
    status: trial.status,
    results: trial.status === 'failed' && trial.error ? [trial.error] : headlines(byTrial.get(trial.id) ?? [], run.metrics),
    row: rows[i]!,
  }));
}

/** What limited each trial, as `results show` says it (lines without the heading); empty when the run read no counters. */
export function trialLimits({ run, samples }: RunResults): string[] {
  return diagnosisLines(runShow('', { run, samples }).trials)
    .slice(1)
    .map((line) => line.trim());
}

function parameters(trial: TrialRecord): string {
  return Object.entries({ ...trial.cell, ...trial.params })
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(' ');
}

function headlines(samples: readonly Sample[], declared: RunResults['run']['metrics']): string[] {
  // Latency under load: total goodput, idle → loaded latency and RPM, never a per-flow rate.
  const load = loadHeadline(samples);
  if (load) {
    const probes = [...new Set(samples.filter((s) => s.labels['flow'] === 'summary' && s.metric === 'latency_increase').map((s) => String(s.labels['probe'])))];
    const increases = probes
      .filter((p) => p !== load.probe)
      .flatMap((p) =>
        samples
          .filter((s) => s.labels['flow'] === 'summary' && s.metric === 'latency_increase' && s.labels['probe'] === p)
          .map((s) => `${p} latency increase ${formatQuantity(s.value, s.unit)}`),
      );
    return [describeLoadHeadline(load, formatQuantity), ...increases];
  }
  // Trial-level values only; per-stream samples would repeat the metric once per stream.
  return samples
    .filter((s) => s.labels['stream'] === undefined && s.labels['interval_end'] === undefined && headlineMetric(s.metric, declared))
    .map((s) => `${s.labels['direction'] === 'reverse' ? '↩ ' : ''}${metricName(s.metric)} ${formatQuantity(s.value, s.unit)}`);
}

export function environment({ run, samples }: RunResults): Environment {
  const tools = new Map<string, string>();
  for (const sample of samples) {
    const tool = sample.labels['tool'];
    if (typeof tool !== 'string' || tools.has(tool)) continue;
    const version = sample.labels[`${tool}_version`];
    if (version === undefined) continue;
    const features = Object.entries(sample.labels)
      .filter(([key]) => key.startsWith(`${tool}_`) && key !== `${tool}_version` && key !== `${tool}_server_version`)
      .map(([key, value]) => `${key.slice(tool.length + 1)}=${String(value)}`);
    tools.set(tool, `${tool} ${String(version)}${features.length ? ` (${features.join(', ')})` : ''}`);
  }
  return {
    hosts: run.hosts.map((h) => ({
      name: h.name,
      cloud: h.cloud,
      zone: [h.zone, h.region].filter(Boolean).join(' / '),
      machineType: h.machineType ?? '',
      os: h.os ?? '',
      internalIp: h.internalIp,
      shaping: shapingText(h.labels ?? {}),
      congestionControl: String(h.labels?.['tcp_congestion_control'] ?? h.fingerprint?.congestionControl ?? ''),
    })),
    tools: [...tools.values()],
    phases: run.phases.map((p) => `${p.phase} ${(p.durationMs / 1000).toFixed(1)} s${p.ok ? '' : ' (failed)'}`),
    errors: run.errors,
  };
}

/**
 * `ingress_rate 100mbit · qdisc tbf · latency 200ms (toward the host)`: the
 * local lab's shaping from a host's `link_*` labels (docs/local-lab.md),
 * empty when unshaped. `ingress_*` shapes what the host receives, the rest its own egress.
 */
export function shapingText(labels: Readonly<Record<string, unknown>>): string {
  const parts = Object.entries(labels)
    .filter(([k]) => k.startsWith('link_'))
    .map(([k, v]) => `${k.slice('link_'.length)} ${String(v)}`);
  if (parts.length === 0) return '';
  return `${parts.join(' · ')} (${labels['link_ingress_rate'] !== undefined ? 'toward the host' : 'its egress'})`;
}

/**
 * Where the spec is: the copy kept in the run folder (what `netbench run`
 * read, with its --set values), and the file it was run from unless that was
 * the desktop app's temporary one (gone once the run ended).
 */
export function specPlace(run: { readonly runDir: string; readonly specFile?: string }): { readonly kept: string; readonly from?: string; readonly app: boolean } {
  const kept = `${run.runDir.replace(/\/+$/, '')}/${RUN_FILES.spec}`;
  const app = run.specFile !== undefined && APP_SPEC_RE.test(run.specFile);
  return { kept, app, ...(run.specFile !== undefined && !app && run.specFile !== kept ? { from: run.specFile } : {}) };
}

/** The desktop app writes the spec it runs to a temporary folder `netbench-desktop-*` (main/run-control.ts). */
const APP_SPEC_RE = /[\\/]netbench-desktop-[^\\/]+[\\/]spec\.ya?ml$/;
