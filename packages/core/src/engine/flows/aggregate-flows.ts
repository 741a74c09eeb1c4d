import type { FlowCombine, Labels, LabelValue, SampleInput } from '@netbench/plugin-api';

/** One flow's outcome, as the aggregation sees it. */
export interface FlowOutcome {
  readonly label: string;
  /** Final samples (not interval samples), with their full labels. */
  readonly samples: readonly SampleInput[];
  /** When its measuring process started, ms since the epoch on the controller's clock. */
  readonly startedAt?: number;
  /** When its first reported interval began (sample timestamp minus `interval_seconds`), ms since the epoch. */
  readonly firstDataAt?: number;
}

/**
 * The trial-level samples of a synchronized trial, labelled `flow: aggregate`:
 * - for every metric the tool combines (`combine`): the sum (or mean) over
 *   the flows that reported it, with the spread in labels `flow_min`,
 *   `flow_median`, `flow_max` and how many flows in `flow_count`; left out
 *   when a flow reported it twice or in another unit;
 * - `flow_start_skew` (ms): last flow start minus first (PKB's
 *   `all_streams_start_delta`), when every flow reported its start: the
 *   spread of the releases on the controller, not of the first data;
 * - `flow_first_data_skew` (ms): the same spread over the start of each
 *   flow's first reported interval, when every flow reported one.
 * An aggregate keeps the labels its flows' samples share (so it claims no
 * host the flows do not all have). Pure.
 */
export function aggregateFlows(flows: readonly FlowOutcome[], combine: (metric: string, unit: string) => FlowCombine | undefined, timestamp: number): SampleInput[] {
  if (flows.length === 0) return [];
  const base: Labels = { flow: 'aggregate', flow_count: flows.length };
  const out: SampleInput[] = [];

  const seen = new Set<string>();
  for (const sample of flows.flatMap((flow) => flow.samples)) {
    if (seen.has(sample.metric)) continue;
    seen.add(sample.metric);
    const how = combine(sample.metric, sample.unit);
    if (!how) continue;
    // Flows that do not report the metric stay out (a bidirectional mix: TCP_STREAM on some, TCP_MAERTS on others).
    const reporting = flows.filter((flow) => flow.samples.some((s) => s.metric === sample.metric));
    const found = reporting.map((flow) => only(flow.samples, sample.metric, sample.unit));
    if (found.some((s) => s === undefined)) continue;
    const values = found.map((s) => s!.value);
    const sorted = values.slice().sort((a, b) => a - b);
    const sum = sorted.reduce((a, b) => a + b, 0);
    out.push({
      metric: sample.metric,
      value: how === 'sum' ? sum : sum / sorted.length,
      unit: sample.unit,
      timestamp,
      labels: {
        ...commonLabels(found.map((s) => s!.labels ?? {})),
        ...base,
        flow_count: reporting.length,
        aggregation: how === 'sum' ? 'sum_of_flows' : 'mean_of_flows',
        flow_min: sorted[0]!,
        flow_median: median(sorted),
        flow_max: sorted[sorted.length - 1]!,
      },
    });
  }

  const starts = flows.map((flow) => flow.startedAt);
  if (starts.every((s): s is number => s !== undefined)) {
    out.push({ metric: 'flow_start_skew', value: round3(Math.max(...starts) - Math.min(...starts)), unit: 'ms', timestamp, labels: base });
  }
  const firsts = flows.map((flow) => flow.firstDataAt);
  if (firsts.every((s): s is number => s !== undefined)) {
    out.push({ metric: 'flow_first_data_skew', value: round3(Math.max(...firsts) - Math.min(...firsts)), unit: 'ms', timestamp, labels: base });
  }
  return out;
}

/** The sample of `metric` when a flow reported it exactly once, in `unit`. */
function only(samples: readonly SampleInput[], metric: string, unit: string): SampleInput | undefined {
  const found = samples.filter((s) => s.metric === metric);
  return found.length === 1 && found[0]!.unit === unit ? found[0] : undefined;
}

function median(sorted: readonly number[]): number {
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Labels with the same value in every set. */
export function commonLabels(sets: readonly Labels[]): Labels {
  const [first, ...rest] = sets;
  if (!first) return {};
  const common: Record<string, LabelValue> = {};
  for (const [key, value] of Object.entries(first)) {
    if (rest.every((labels) => labels[key] === value)) common[key] = value;
  }
  return common;
}

const round3 = (value: number) => Math.round(value * 1000) / 1000;
