import type { PhaseRecord } from '@netbench/plugin-api';
import { type RunState, reportError } from './run-state.js';

/**
 * Run one phase: `phase-started`, the work, a `PhaseRecord` and
 * `phase-finished`. A thrown error is reported (event and record) and turns
 * into `false`; it never escapes, so the phases after it still run.
 */
export async function runPhase(state: RunState, phase: PhaseRecord['phase'], work: () => Promise<boolean | void>): Promise<boolean> {
  const startedAt = new Date();
  const began = performance.now();
  state.events.emit({ type: 'phase-started', phase });
  let ok: boolean;
  try {
    ok = (await work()) !== false;
  } catch (error) {
    for (const single of error instanceof AggregateError ? error.errors : [error]) reportError(state, single, phase);
    ok = false;
  }
  const durationMs = Math.round(performance.now() - began);
  state.phases.push({ phase, startedAt: startedAt.toISOString(), durationMs, ok });
  state.events.emit({ type: 'phase-finished', phase, durationMs, ok });
  return ok;
}

/** Wait for every promise; throw all failures at once (as an `AggregateError` when more than one). */
export async function settleAll<T>(promises: readonly Promise<T>[]): Promise<T[]> {
  const results = await Promise.allSettled(promises);
  const errors = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new AggregateError(errors, errors.map((e) => (e instanceof Error ? e.message : String(e))).join('; '));
  return results.map((r) => (r as PromiseFulfilledResult<T>).value);
}
