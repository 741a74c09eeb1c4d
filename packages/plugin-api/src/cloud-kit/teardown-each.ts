import type { LedgerResource } from '../ledger/types.js';
import type { CleanupFilter, CleanupReport } from '../plugin/cloud.js';

/**
 * The end of every cloud plugin's `cleanup`: delete each found resource one
 * after another in the given order (callers list dependents first), keep
 * going past failures, and report them with their message. With `dryRun`
 * nothing is deleted and the report still lists what was found.
 */
export async function teardownEach(
  found: readonly LedgerResource[],
  remove: (resource: LedgerResource) => Promise<void>,
  options: Pick<CleanupFilter, 'dryRun'>,
): Promise<CleanupReport> {
  const failed: { resource: LedgerResource; error: string }[] = [];
  if (!options.dryRun) {
    for (const resource of found) {
      try {
        await remove(resource);
      } catch (error) {
        failed.push({ resource, error: error instanceof Error ? error.message : String(error) });
      }
    }
  }
  return { found, failed };
}
