import { probeRtt } from '@netbench/core';
import type { Sample } from '@netbench/plugin-api';

/**
 * When a synchronized trial began on the controller's clock (ms), from its
 * interval samples: a probe reply arrives one RTT after it was sent, an
 * interval ends one interval after it began (`interval_seconds`, else
 * `fallbackSeconds`). Every chart of one trial counts its time from here, so
 * they share one time axis.
 */
export function trialStart(intervals: readonly Sample[], fallbackSeconds = 0): number {
  let t0 = Infinity;
  for (const s of intervals) {
    const rtt = probeRtt(s);
    const start = rtt?.probe === 'icmp' || rtt?.probe === 'irtt' ? s.timestamp - rtt.ms : s.timestamp - 1000 * (Number(s.labels['interval_seconds']) || fallbackSeconds);
    if (start < t0) t0 = start;
  }
  return t0;
}

/**
 * One flow's interval rates on a grid of `step` seconds since `t0`: each
 * rate holds over its interval (ending when its line arrived), and grid
 * point t takes the interval that covers it — as flent resamples before
 * summing. Binning intervals by their end instead would put two intervals
 * of a flow in one bin and none in the next whenever intervals run longer
 * than the step (netperf's demo intervals stretch on a busy machine), which
 * leaves holes in a stack and makes a sum zigzag. Keys: grid index (t = index × step).
 */
export function coverGrid(samples: readonly Sample[], t0: number, step: number): Map<number, number> {
  const covered = new Map<number, number>();
  let previousEnd: number | undefined;
  for (const s of [...samples].sort((a, b) => a.timestamp - b.timestamp)) {
    const end = (s.timestamp - t0) / 1000;
    const seconds = Number(s.labels['interval_seconds']);
    // Without its own length, an interval reaches back to the flow's previous one (or one step).
    const start = Number.isFinite(seconds) && seconds > 0 ? end - seconds : (previousEnd ?? end - step);
    previousEnd = end;
    // Grid points t with start < t ≤ end; where a flow's intervals overlap, the earlier one keeps the point.
    for (let bin = Math.floor(start / step + 1e-9) + 1; bin * step <= end + 1e-9; bin += 1) {
      if (!covered.has(bin)) covered.set(bin, s.value);
    }
  }
  return covered;
}
