import type { RunRecord, Sample } from '@netbench/plugin-api';
import { NetbenchError } from '@netbench/plugin-api';
import { parseBlock } from './block-schema.js';
import { call, pluginContext, type RunState, reportError } from './run-state.js';

/** The results store's key in `PublishProgress.done`; `publish[i]` is the spec's i-th entry. */
const STORE_KEY = 'store';

/** What an earlier invocation already published, and how to record what this one publishes. */
export interface PublishProgress {
  readonly done: ReadonlySet<string>;
  markDone(key: string): Promise<void>;
}

/**
 * Hand the run to the results store, then to every `publish[]` entry, one
 * after another, each isolated: the store or a publisher that is missing,
 * rejects its settings or throws is reported and the next one still
 * publishes. Not tied to the run's interrupt: publishing what was measured
 * is what an interrupted run still does. `results.json` is written before.
 * Sinks in `progress.done` are skipped; each one that succeeds is marked, so
 * that a process killed here publishes only the rest when it is resumed.
 */
export async function publish(state: RunState, record: RunRecord, samples: readonly Sample[], progress?: PublishProgress): Promise<boolean> {
  const timeoutMs = state.plan.spec.options.provisionTimeout * 1000;
  let ok = true;
  if (progress?.done.has(STORE_KEY)) {
    if (state.store) state.store.stored = true;
  } else {
    ok = await storeRun(state, record, samples);
    if (ok) await progress?.markDone(STORE_KEY);
  }
  for (const [index, entry] of state.plan.spec.publish.entries()) {
    const { type, ...fields } = entry;
    const key = `publish[${index}]`;
    // Published by the invocation that died publishing: not sent twice.
    if (progress?.done.has(key)) continue;
    try {
      const publisher = await state.registry.get('publisher', type);
      if (!publisher) throw new NetbenchError(`publish[${index}]: no publisher plugin named ${type} is installed`);
      // Parsed when the spec was validated; a plan made some other way is parsed here.
      const settings = state.plan.publishSettings?.[index] ?? parseBlock(publisher.schema, fields, `publish[${index}]`);
      const result = await call(state, publisher, 'publish', (signal) => publisher.publish(record, samples, settings, pluginContext(state, publisher.name, signal)), { timeoutMs });
      state.events.emit({ type: 'published', publisher: type, count: result?.count ?? 0, ...(result?.location !== undefined ? { location: result.location } : {}) });
      await progress?.markDone(key);
    } catch (error) {
      reportError(state, error, 'publish', type);
      state.publishErrors += 1;
      ok = false;
    }
  }
  return ok;
}

/** Ingest the run into the results store (one transaction). A failure counts as a failed publisher. */
async function storeRun(state: RunState, record: RunRecord, samples: readonly Sample[]): Promise<boolean> {
  if (!state.store) return true;
  try {
    await state.store.sink.ingest(record, samples);
    state.store.stored = true;
    state.events.emit({ type: 'published', publisher: 'store', location: state.store.sink.location, count: samples.length });
    return true;
  } catch (error) {
    reportError(state, error, 'publish', 'store');
    state.publishErrors += 1;
    return false;
  }
}

/**
 * Give the stored run its final record (the publish phase and its errors),
 * as `results.json` has it. Only when the run was stored.
 */
export async function updateStoredRecord(state: RunState, record: RunRecord): Promise<boolean> {
  if (!state.store?.stored) return true;
  try {
    await state.store.sink.updateRecord(record);
    return true;
  } catch (error) {
    reportError(state, error, 'publish', 'store');
    return false;
  }
}
