import type { Logger } from '@netbench/plugin-api';
import { CapacityError, QuotaError } from '@netbench/plugin-api';

/**
 * Try `attempt` in `zones` in order, moving on only when the zone refused for
 * lack of capacity or quota; the last refusal is thrown when every zone did.
 */
export async function inFirstZoneThatFits<T>(zones: readonly string[], attempt: (zone: string) => Promise<T>, log?: Logger): Promise<{ value: T; zone: string }> {
  let last: unknown;
  for (const [i, zone] of zones.entries()) {
    try {
      return { value: await attempt(zone), zone };
    } catch (error) {
      if (!(error instanceof CapacityError || error instanceof QuotaError)) throw error;
      last = error;
      const next = zones[i + 1];
      if (next) log?.warn(`${error.message}; trying ${next}`);
    }
  }
  throw last ?? new Error('no zone to try');
}
