import type { TrialSpec } from '@netbench/core';
import type { SockperfParams } from './schema.js';

const list = <T>(value: T | readonly T[]): readonly T[] => (Array.isArray(value) ? value : [value as T]);

// sockperf measures 0.4 s of warm-up before the timed part.
const WARMUP_SECONDS = 0.4;

/** One trial per mode × protocol; every parameter that changes the result is a label. */
export function sockperfTrials(params: SockperfParams): TrialSpec[] {
  const trials: TrialSpec[] = [];
  for (const mode of list(params.mode)) {
    for (const protocol of list(params.protocol)) {
      trials.push({
        test: mode,
        params: {
          protocol,
          duration: params.duration,
          message_size: params.messageSize,
          mps: params.mps ?? (mode === 'under-load' ? 10_000 : 'max'),
          ...(mode === 'under-load' ? { reply_every: params.replyEvery } : {}),
          full_rtt: params.fullRtt,
          histogram: params.histogram,
        },
        estimatedSeconds: params.duration + WARMUP_SECONDS,
      });
    }
  }
  return trials;
}
