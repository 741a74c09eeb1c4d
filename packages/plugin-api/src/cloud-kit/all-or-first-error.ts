/**
 * Wait for every promise, then throw the first failure (in array order), not
 * an aggregate: nothing may still be creating resources when provision gives
 * up and teardown reads the ledger, and the engine classifies the one error
 * it sees (quota, capacity) to pick its exit code. The engine's own
 * `settleAll` differs on purpose: it reports every failure of a phase.
 */
export async function allOrFirstError<T>(promises: readonly Promise<T>[]): Promise<T[]> {
  const results = await Promise.allSettled(promises);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return results.map((r) => (r as PromiseFulfilledResult<T>).value);
}
