/**
 * Wait for every promise, then throw the first failure: nothing may still be
 * creating resources when provision gives up and teardown reads the ledger.
 */
export async function allOrFirstError<T>(promises: readonly Promise<T>[]): Promise<T[]> {
  const results = await Promise.allSettled(promises);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return results.map((r) => (r as PromiseFulfilledResult<T>).value);
}
