import type { TrialSpec } from '@netbench/plugin-api';
import { cpuParams } from '@netbench/plugin-api/tool-kit';
import type { NetperfBlock } from './schema.js';
import { isRequestResponse, type NetperfTest } from './tests.js';

/**
 * The parameters of one trial, as `trials` writes them: what `run` receives
 * as `trial.params`, typed, never parsed again (absent switches are off).
 */
export type TrialParams = {
  readonly duration: number;
  readonly streams: number;
  readonly requestSize?: number;
  readonly responseSize?: number;
  readonly sendSize?: number;
  readonly socketBuffer?: number;
  readonly nodelay?: boolean;
  readonly confidenceLevel?: number;
  readonly confidenceWidth?: number;
  readonly confidenceMin?: number;
  readonly confidenceMax?: number;
  readonly intervalBurst?: number;
  readonly intervalWaitMs?: number;
  readonly burst?: number;
  readonly demo?: number;
  readonly tos?: string;
  readonly histogram?: boolean;
  readonly cpuUtil?: boolean;
  /** CPUs the client and server ends are pinned to (`-T`); labels `cpu_client`, `cpu_server`. */
  readonly cpu_client?: number;
  readonly cpu_server?: number;
  readonly congestion?: string;
};

function streamCounts(streams: NetperfBlock['streams']): number[] {
  return [...new Set(Array.isArray(streams) ? streams : [streams])];
}

/** Parameters that change the result of `test`; only those that apply to it, so labels stay honest. */
export function paramsFor(block: NetperfBlock, test: NetperfTest, streams: number, burst?: number): TrialParams {
  const params: { -readonly [K in keyof TrialParams]: TrialParams[K] } = { duration: block.duration, streams };
  if (isRequestResponse(test)) {
    params.requestSize = block.requestSize;
    params.responseSize = block.responseSize;
    if (burst !== undefined) params.burst = burst;
  } else if (block.sendSize !== undefined) {
    params.sendSize = block.sendSize;
  }
  if (block.socketBuffer !== undefined) params.socketBuffer = block.socketBuffer;
  if (test.startsWith('TCP_')) params.nodelay = block.nodelay;
  if (test.startsWith('TCP_') && block.congestion !== undefined) params.congestion = block.congestion;
  if (block.confidence) {
    params.confidenceLevel = block.confidence.level;
    params.confidenceWidth = block.confidence.width;
    params.confidenceMin = block.confidence.min;
    params.confidenceMax = block.confidence.max;
  }
  if (block.interval) {
    params.intervalBurst = block.interval.burst;
    params.intervalWaitMs = block.interval.waitMs;
  }
  if (block.histogram && isRequestResponse(test)) params.histogram = true;
  if (block.cpuUtil) params.cpuUtil = true;
  if (block.demo !== undefined) params.demo = block.demo;
  Object.assign(params, cpuParams(block.cpus));
  if (block.tos !== undefined) params.tos = block.tos;
  return params;
}

/** Measuring seconds of one trial: streams run at once; confidence repeats up to `max` times. */
export function estimatedSeconds(params: Pick<TrialParams, 'duration' | 'confidenceMax'>): number {
  return params.duration * (params.confidenceMax ?? 1);
}

/** One trial per test × stream count, tests outermost (PKB loops streams outermost; order does not change results). */
export function netperfTrials(block: NetperfBlock): TrialSpec<TrialParams>[] {
  const trials: TrialSpec<TrialParams>[] = [];
  for (const test of [...new Set(block.tests)]) {
    // A burst list is a sweep of request/response tests only; streaming tests have no burst.
    const rr = isRequestResponse(test);
    const bursts =
      rr && block.burstSearch
        ? searchBursts(block.burstSearch.max)
        : rr && block.burst !== undefined
          ? [...new Set(Array.isArray(block.burst) ? block.burst : [block.burst])]
          : [undefined];
    for (const [streams, burst] of streamCounts(block.streams).flatMap((n) => bursts.map((b) => [n, b] as const))) {
      const params = paramsFor(block, test, streams, burst);
      // Bulk tests send as fast as the path goes (no target rate): egress cost assumes the link's cap.
      const traffic = test === 'TCP_MAERTS' ? { direction: 'reverse' as const } : isRequestResponse(test) ? undefined : { direction: 'forward' as const };
      const search =
        rr && block.burstSearch
          ? {
              search: {
                group: `${test}/${streams}`,
                metric: streams === 1 ? `${test}_Transaction_Rate` : `${test}_Throughput_total`,
                minGainPercent: block.burstSearch.minGainPercent,
              },
            }
          : {};
      trials.push({
        test,
        params,
        estimatedSeconds: estimatedSeconds({ duration: block.duration, confidenceMax: block.confidence?.max }),
        ...(traffic ? { traffic } : {}),
        ...search,
      });
    }
  }
  return trials;
}

/** The burst search's steps: 0 (one transaction in flight), then 1, 2, 4, ... up to `max` (and `max` itself). */
export function searchBursts(max: number): number[] {
  const steps = [0];
  for (let burst = 1; burst < max; burst *= 2) steps.push(burst);
  steps.push(max);
  return steps;
}
