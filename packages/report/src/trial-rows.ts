// `@netbench/report/trial-rows`: one line per trial as a network engineer
// reads a run (`results show` and the desktop app's run page print the same
// texts). Browser-safe: units only, no Node built-ins.
import type { LoadHeadline, ShownTrial } from '@netbench/results';
import { displayUnit, formatNumber, joinUnit } from './units.js';

/** The texts of one trial's summary row; a percentile the tool did not give is `—`, never made up. */
export interface TrialRowTexts {
  /** `a → b`, `a → b (reverse)`; empty for imported files, whose hosts are unknown. */
  readonly hosts: string;
  /** The parameters that differ between the run's trials (the rest would repeat on every row). */
  readonly parameters: string;
  /** Throughput, else transaction/request rate, else `mean` latency (a synchronized trial's aggregate); the status when the trial did not succeed. */
  readonly result: string;
  readonly p50: string;
  readonly p90: string;
  readonly p99: string;
  readonly p999: string;
  readonly loss: string;
  /** Observations behind the percentiles (packets, probes), when known. */
  readonly n: string;
}

/** What the `result` column is, said once under the table. */
export const TRIAL_ROWS_NOTE =
  'result: throughput, else transaction/request rate (HTTP: requests/s answered with success, then the requests that failed, by kind), else mean latency; synchronized flows (mesh): their aggregate; latency under load: total goodput, idle → loaded p50 of one probe, RPM (percentiles: loaded). Percentiles as the tool reported them, or from per-packet histograms; — where the tool gives none (netperf prints p50/p90/p99 only) or n cannot support it (n ≥ 5/(1−q): p99 needs 500, p99.9 5,000).';

/** `12.9 Gbit/s`, `21,931 tx/s`: a quantity in the unit its magnitude fills. */
function quantityText(q: { readonly value: number; readonly unit: string } | undefined): string {
  if (!q) return '';
  const { symbol, factor } = displayUnit(q.unit, q.value);
  return joinUnit(formatNumber(q.value * factor), symbol);
}

/** ` via wg (wireguard)`, ` (plain)` beside the hosts of a run with tunnels (`none` is the plain path: docs/tunnels.md); the type unless the name says it. */
function viaText(tunnel: string | undefined, type: string | undefined): string {
  if (tunnel === undefined) return '';
  if (tunnel === 'none') return ' (plain)';
  return type === undefined || type === tunnel ? ` via ${tunnel}` : ` via ${tunnel} (${type})`;
}

const isLatency = (metric: string | undefined) => metric !== undefined && /latency/i.test(metric);

/** Parameters that differ between the trials (direction has its own place in `hosts`; `without` are left out too). */
export function varyingParams(trials: readonly ShownTrial[], without: readonly string[] = []): (t: ShownTrial) => string {
  const keys = [...new Set(trials.flatMap((t) => Object.keys(t.params)))].filter(
    (k) => k !== 'direction' && !without.includes(k) && trials.some((t) => t.params[k] !== false) && new Set(trials.map((t) => String(t.params[k] ?? ''))).size > 1,
  );
  return (t) =>
    keys
      .filter((k) => t.params[k] !== undefined && t.params[k] !== false)
      .map((k) => `${k}=${String(t.params[k])}`)
      .join(' ');
}

/** One summary row per trial, in the trials' order: hosts, varying parameters, result, p50/p90/p99/p99.9 (each in the unit its magnitude fills), loss. */
export function trialRows(trials: readonly ShownTrial[]): TrialRowTexts[] {
  const params = varyingParams(trials);
  return trials.map((t) => {
    const latency = t.summary.latency;
    const at = (k: 'p50' | 'p90' | 'p99' | 'p999') => {
      if (!latency) return '';
      const value = latency[k];
      return value === undefined ? '—' : quantityText({ value, unit: latency.unit });
    };
    return {
      hosts:
        t.flows !== undefined && !t.summary.load
          ? `${t.flows} flows at once`
          : t.client === 'unknown'
            ? ''
            : `${t.client} → ${t.server}${t.params['direction'] === 'reverse' ? ' (reverse)' : ''}${viaText(t.tunnel, t.tunnelType)}`,
      parameters: params(t),
      result:
        t.status !== 'succeeded'
          ? t.status
          : t.summary.load
            ? describeLoadHeadline(t.summary.load, (value, unit) => quantityText({ value, unit }))
            : [`${isLatency(t.summary.headline?.metric) ? 'mean ' : ''}${quantityText(t.summary.headline)}`, errorsText(t.summary.errors)].filter(Boolean).join(' · '),
      p50: at('p50'),
      p90: at('p90'),
      p99: at('p99'),
      p999: at('p999'),
      loss: quantityText(t.summary.loss),
      n: latency?.n !== undefined ? formatNumber(latency.n) : '',
    };
  });
}

/** How the error kinds read (`status`: an error status, 404 or 5xx; the rest are socket errors). */
const ERROR_KIND_NAMES: Readonly<Record<string, string>> = { status: 'error status', connect: 'connect', read: 'read', write: 'write', timeout: 'timeout' };

/** `51,590 of 51,590 requests failed (error status 51,590)`; empty when none failed. */
export function errorsText(errors: ShownTrial['summary']['errors']): string {
  if (!errors) return '';
  const kinds = errors.kinds.map(([kind, n]) => `${ERROR_KIND_NAMES[kind] ?? kind} ${formatNumber(n)}`).join(', ');
  return `${formatNumber(errors.count)}${errors.of !== undefined ? ` of ${formatNumber(errors.of)}` : ''} requests failed${kinds ? ` (${kinds})` : ''}`;
}

/** `goodput 19.3 Mbit/s · icmp idle 0.58 ms → loaded 101 ms (+100 ms) · 594 RPM`, with the caller's number format. */
export function describeLoadHeadline(h: LoadHeadline, format: (value: number, unit: string) => string): string {
  const parts: string[] = [];
  if (h.goodput) parts.push(`goodput ${format(h.goodput.value, h.goodput.unit)}`);
  if (h.idle && h.loaded) {
    const increase = h.increase ? ` (${h.increase.value >= 0 ? '+' : '−'}${format(Math.abs(h.increase.value), h.increase.unit)})` : '';
    parts.push(`${h.probe ?? ''} idle ${format(h.idle.value, h.idle.unit)} → loaded ${format(h.loaded.value, h.loaded.unit)}${increase}`.trim());
  }
  if (h.responsiveness) parts.push(`${formatNumber(Math.round(h.responsiveness.value))} RPM`);
  return parts.join(' · ');
}

/**
 * What limited each trial, as lines under a trial table (`results show`, the
 * run summary, reports): a line per finding, `t0007  limited by …`, then the
 * trials whose counters showed no limit; nothing for trials measured without
 * counters. Thresholds and rules: docs/explain.md.
 */
export function diagnosisLines(trials: readonly ShownTrial[]): string[] {
  const lines: string[] = [];
  const clear: string[] = [];
  for (const t of trials) {
    if (!t.explain) continue;
    if (t.explain.diagnoses.length === 0) clear.push(t.id);
    for (const d of t.explain.diagnoses) lines.push(`${t.id}  ${d.summary}  [${d.rule}: ${d.threshold}]`);
    for (const note of t.explain.notes ?? []) lines.push(`${t.id}  (not read: ${note})`);
    if (t.explain.toolCounters?.length) lines.push(`${t.id}  ${toolCountersText(t.explain.toolCounters)}`);
  }
  if (lines.length === 0 && clear.length === 0) return [];
  return ['what limited each trial (host counters; docs/explain.md):', ...lines.map((l) => `  ${l}`), ...(clear.length > 0 ? [`  no limit found: ${clear.join(', ')}`] : [])];
}

/** `iperf3 counted: client_cpu_total 12.5 percent (client), sender_retransmits 3 segments (server shaped)`: a tool's own counters (`ToolPlugin.counters`). */
export function toolCountersText(counters: NonNullable<NonNullable<ShownTrial['explain']>['toolCounters']>): string {
  const tools = [...new Set(counters.map((c) => c.tool))];
  return tools
    .map(
      (tool) =>
        `${tool} counted: ${counters
          .filter((c) => c.tool === tool)
          .map((c) => `${c.name} ${formatNumber(c.value)} ${c.unit}${c.role ? ` (${c.host && c.host !== c.role ? `${c.role} ${c.host}` : c.role})` : ''}`)
          .join(', ')}`,
    )
    .join('; ');
}
