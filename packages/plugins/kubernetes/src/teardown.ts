import { setTimeout as sleep } from 'node:timers/promises';
import type { LedgerResource, TeardownContext } from '@netbench/plugin-api';
import { apiMessage, ClientCache, statusOf } from './kube-client.js';
import { resourceData, TYPES } from './resources.js';

export interface TeardownTiming {
  /** How long to wait for a deleted pod to be gone (its containers stopped). */
  readonly goneTimeoutMs: number;
  /** First wait between reads; doubles up to `maxPollMs`. */
  readonly pollMs: number;
  readonly maxPollMs: number;
}

export const DEFAULT_TEARDOWN_TIMING: TeardownTiming = { goneTimeoutMs: 120_000, pollMs: 100, maxPollMs: 2_000 };

/**
 * Delete one pod or Service from its ledger entry alone (cluster, namespace,
 * name) and, for a pod, wait until the API no longer has it. Already gone
 * (404) is success.
 */
export async function teardownResource(resource: LedgerResource, ctx: TeardownContext, cache = new ClientCache(), timing = DEFAULT_TEARDOWN_TIMING): Promise<void> {
  const { namespace, name, ...cluster } = resourceData(resource);
  const { core } = cache.get(cluster);
  const notFound = (error: unknown) => statusOf(error) === 404;
  const fail = (what: string, error: unknown) => new Error(`${what} ${namespace}/${name}: ${apiMessage(error)}`, { cause: error });
  if (resource.type === TYPES.service) {
    try {
      await core.deleteNamespacedService({ namespace, name });
    } catch (error) {
      if (!notFound(error)) throw fail('delete service', error);
    }
    return;
  }
  if (resource.type !== TYPES.pod) throw new Error(`kubernetes cannot delete a resource of type ${resource.type}`);
  try {
    await core.deleteNamespacedPod({ namespace, name, gracePeriodSeconds: 1 });
  } catch (error) {
    if (notFound(error)) return;
    throw fail('delete pod', error);
  }
  const giveUp = Date.now() + timing.goneTimeoutMs;
  let wait = timing.pollMs;
  for (;;) {
    try {
      await core.readNamespacedPod({ namespace, name });
    } catch (error) {
      if (notFound(error)) return;
      throw fail('read pod', error);
    }
    if (Date.now() > giveUp) throw new Error(`pod ${namespace}/${name} still exists ${timing.goneTimeoutMs / 1000} s after its deletion`);
    await sleep(wait, undefined, { signal: ctx.signal });
    wait = Math.min(wait * 2, timing.maxPollMs);
  }
}
