import type { protos } from '@google-cloud/compute';
import { TimeoutError } from '@netbench/plugin-api';
import type { GceClients } from './clients.js';
import { OperationError } from './errors.js';
import { lastSegment } from './naming.js';

export type Operation = protos.google.cloud.compute.v1.IOperation;

export interface WaitOptions {
  readonly signal: AbortSignal;
  /** Give up after this long (the operation goes on in the cloud; teardown still deletes). */
  readonly timeoutMs: number;
}

/** What an insert/delete call resolves to: `[LROperation-like, ...]` whose `latestResponse` is the Operation. */
export function operationOf(result: readonly unknown[]): Operation {
  const first = result[0] as { latestResponse?: Operation } | undefined;
  if (!first?.latestResponse) throw new Error('the API returned no operation');
  return first.latestResponse;
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * Wait until a zonal, regional or global operation is DONE, with the API's
 * `wait` method (it blocks server-side for up to two minutes, so one call
 * usually suffices: fewer calls than polling `get`). Throws `OperationError`
 * when the operation finished with errors, `TimeoutError` past the deadline.
 */
export async function waitForOperation(clients: GceClients, project: string, initial: Operation, options: WaitOptions): Promise<Operation> {
  const deadline = Date.now() + options.timeoutMs;
  let op = initial;
  const name = op.name ?? '';
  while (op.status !== 'DONE') {
    const left = deadline - Date.now();
    if (left <= 0) throw new TimeoutError(`operation ${name} (${op.operationType ?? 'operation'} ${op.targetLink ?? ''}) not done after ${Math.round(options.timeoutMs / 1000)} s`);
    const call = { timeout: Math.min(left, 120_000) };
    const pending = op.zone
      ? clients.zoneOperations.wait({ project, zone: lastSegment(op.zone), operation: name }, call)
      : op.region
        ? clients.regionOperations.wait({ project, region: lastSegment(op.region), operation: name }, call)
        : clients.globalOperations.wait({ project, operation: name }, call);
    [op] = (await abortable(pending, options.signal)) as [Operation, ...unknown[]];
  }
  const errors = op.error?.errors ?? [];
  if (errors.length > 0) throw new OperationError(name, errors);
  return op;
}
