import type { TrialSpec } from '@netbench/plugin-api';
import type { SockperfParams } from './schema.js';

const list = <T>(value: T | readonly T[]): readonly T[] => (Array.isArray(value) ? value : [value as T]);

// sockperf measures 0.4 s of warm-up before the timed part.
const WARMUP_SECONDS = 0.4;

/** A trial's parameters: what `trials` gives each trial and `run` receives, typed; every one is a sample label. */
export type SockperfTrialParams = {
  readonly protocol: 'udp' | 'tcp';
  readonly duration: number;
  readonly message_size: number;
  readonly mps: number | 'max';
  /** Every Nth reply is timed: 1 in ping-pong (each one), `replyEvery` under load. */
  readonly reply_every: number;
  readonly full_rtt: boolean;
  readonly histogram: boolean;
};

/** One trial per mode × protocol × message rate; every parameter that changes the result is a label. */
export function sockperfTrials(params: SockperfParams): TrialSpec<SockperfTrialParams>[] {
  const trials: TrialSpec<SockperfTrialParams>[] = [];
  for (const mode of list(params.mode)) {
    for (const protocol of list(params.protocol)) {
      for (const mps of params.mps === undefined ? [undefined] : list(params.mps)) {
        trials.push({
          test: mode,
          params: {
            protocol,
            duration: params.duration,
            message_size: params.messageSize,
            mps: mps ?? (mode === 'under-load' ? 10_000 : 'max'),
            reply_every: mode === 'under-load' ? params.replyEvery : 1,
            full_rtt: params.fullRtt,
            histogram: params.histogram,
          },
          estimatedSeconds: params.duration + WARMUP_SECONDS,
        });
      }
    }
  }
  return trials;
}
