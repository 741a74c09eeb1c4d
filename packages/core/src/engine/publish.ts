import type { RunRecord } from './run-record.js';
import type { Sample } from '../samples/types.js';
import { NetbenchError } from '../errors/index.js';
import { parseBlock } from './block-schema.js';
import { call, pluginContext, reportError, type RunState } from './run-state.js';

/**
 * Hand the run to every `publish[]` entry, one after another, each isolated:
 * a publisher that is missing, rejects its settings or throws is reported and
 * the next one still publishes. Not tied to the run's interrupt: publishing
 * what was measured is what an interrupted run still does.
 */
export async function publish(state: RunState, record: RunRecord, samples: readonly Sample[]): Promise<boolean> {
  const timeoutMs = state.plan.spec.options.provisionTimeout * 1000;
  let ok = true;
  for (const [index, entry] of state.plan.spec.publish.entries()) {
    const { type, ...fields } = entry;
    try {
      const publisher = await state.registry.get('publisher', type);
      if (!publisher) throw new NetbenchError(`publish[${index}]: no publisher plugin named ${type} is installed`);
      const settings = parseBlock(publisher.schema, fields, `publish[${index}]`);
      const result = await call(state, publisher, 'publish', (signal) => publisher.publish(record, samples, settings, pluginContext(state, publisher.name, signal)), { timeoutMs });
      state.events.emit({ type: 'published', publisher: type, count: result?.count ?? 0, ...(result?.location !== undefined ? { location: result.location } : {}) });
    } catch (error) {
      reportError(state, error, 'publish', type);
      state.publishErrors += 1;
      ok = false;
    }
  }
  return ok;
}
