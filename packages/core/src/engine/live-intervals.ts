import type { Labels, Sample, SampleInput } from '@netbench/plugin-api';
import type { RunState } from './run-state.js';
import { isValidSampleInput } from './trial-lifecycle.js';

/** Live values of one trial are emitted at most this often (a batch per event). */
export const LIVE_BATCH_MS = 250;

/**
 * The live values of one ordinary trial (`ctx.interval`): labelled like its
 * samples, batched, emitted as `trial-interval` events and never stored. A
 * batch goes out after LIVE_BATCH_MS, and whatever is left on `flush()`,
 * which the engine calls before the trial's `trial-finished`.
 */
export class LiveIntervals {
  private batch: Sample[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private count = 0;
  private closed = false;

  constructor(
    private readonly state: RunState,
    private readonly trialId: string,
    private labels: Labels,
  ) {}

  /** The trial's labels once known (they name the attempt's hosts and tool versions). */
  setLabels(labels: Labels): void {
    this.labels = labels;
  }

  add(input: SampleInput): void {
    // Late calls (a stream's last line after the trial ended) and bad values are dropped silently: live display only.
    if (this.closed || !isValidSampleInput(input)) return;
    this.count += 1;
    this.batch.push({
      runId: this.state.runId,
      sampleId: `live-${this.trialId}-${this.count}`,
      trialId: this.trialId,
      metric: input.metric,
      value: input.value,
      unit: input.unit,
      timestamp: input.timestamp ?? Date.now(),
      labels: { ...this.labels, ...input.labels },
      ...(input.histogram ? { histogram: input.histogram } : {}),
    });
    this.timer ??= setTimeout(() => this.emit(), LIVE_BATCH_MS);
  }

  /** Emit what is pending now; with `close`, drop anything that comes later. */
  flush(close = false): void {
    this.emit();
    if (close) this.closed = true;
  }

  private emit(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.batch.length === 0) return;
    const samples = this.batch;
    this.batch = [];
    this.state.events.emit({ type: 'trial-interval', trial: this.trialId, samples });
  }
}
