import type { PhaseRecord, RunStatus, TrialStatus } from '../run/run-record.js';
import type { Sample } from '../samples/types.js';

export type Phase = PhaseRecord['phase'];

interface Base {
  /** Strictly increasing within a run, from 1. */
  readonly seq: number;
  /** Milliseconds since the epoch. */
  readonly time: number;
  readonly runId: string;
}

/**
 * The one event stream of a run. The CLI's progress display, the desktop app
 * and `events.jsonl` all consume exactly these; nobody parses CLI output.
 */
export type NetbenchEvent =
  | (Base & { type: 'run-started'; name: string; runDir: string; trials: number; hosts: number; estimatedSeconds: number })
  | (Base & { type: 'phase-started'; phase: Phase })
  | (Base & { type: 'phase-finished'; phase: Phase; durationMs: number; ok: boolean })
  | (Base & { type: 'host-ready'; host: string; cloud: string; address: string })
  | (Base & { type: 'tool-checked'; host: string; tool: string; version: string })
  | (Base & { type: 'trial-started'; trial: string; index: number; total: number; tool: string; test: string; attempt: number; estimatedSeconds: number })
  | (Base & { type: 'trial-progress'; trial: string; fraction: number; message?: string })
  /**
   * Live values of an ordinary trial while it runs (`ctx.interval`): labelled
   * like the trial's samples, emitted in batches (at most ~4 a second, and the
   * rest before `trial-finished`), for live display only. They are NOT stored:
   * the trial's returned samples are the record. `sampleId`s are `live-…`.
   */
  | (Base & { type: 'trial-interval'; trial: string; samples: readonly Sample[] })
  | (Base & { type: 'trial-finished'; trial: string; status: TrialStatus; durationMs: number; samples: number; error?: string })
  | (Base & { type: 'sample'; sample: Sample })
  | (Base & { type: 'plugin-call'; plugin: string; hook: string; durationMs: number; ok: boolean })
  | (Base & { type: 'warning'; message: string; plugin?: string })
  | (Base & { type: 'error'; message: string; phase?: Phase; plugin?: string })
  | (Base & { type: 'published'; publisher: string; location?: string; count: number })
  | (Base & { type: 'run-finished'; status: RunStatus; durationMs: number; failedTrials: number; teardownErrors: number });

export type NetbenchEventType = NetbenchEvent['type'];

/** Distributes `Omit` over the union so callers emit without seq/time/runId. */
export type EventInput = NetbenchEvent extends infer E ? (E extends NetbenchEvent ? Omit<E, 'seq' | 'time' | 'runId'> : never) : never;
